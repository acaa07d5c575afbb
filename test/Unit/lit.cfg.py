# -*- Python -*-
# Runs Tessel's gtest binaries (unittests/*Tests) as lit tests, one lit test
# per gtest case, so `make test` runs everything through one lit run.

import os

import lit.formats

config.name = "TESSEL-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.tessel_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
# Tests compile from scratch: no test reads what an earlier run (or the
# user's compiles) left in the compile cache; the cache's own tests name
# their directory (docs/CompileCache.md).
config.environment["TESSEL_CACHE_DIR"] = "off"
