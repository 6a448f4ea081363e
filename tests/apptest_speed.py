"""Each new AppTest scans every installed distribution for Streamlit component manifests
(~0.3 s of CPU, for a few hundred AppTests a run). What is installed cannot change during
a test run and this app ships no such component, so the scan is done once per process.
"""

from __future__ import annotations

import functools

from streamlit.components.v2 import manifest_scanner


def scan_manifests_once() -> None:
    """Make `scan_component_manifests` (imported at call time by AppTest) remember its answer."""
    scan = manifest_scanner.scan_component_manifests
    if not hasattr(scan, "cache_info"):
        manifest_scanner.scan_component_manifests = functools.cache(scan)
