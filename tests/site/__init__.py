"""The site's tests: the build, its generated content and its pages."""
