"""The catalogs' and translated pages' tests, and the translation tools'."""
