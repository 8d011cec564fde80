"""The offline copy's tests: the service worker, the engine kept on the device."""
