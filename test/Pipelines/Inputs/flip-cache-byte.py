"""Flips one payload byte of every entry of a compile cache directory
(test/Pipelines/tessel-to-cuda-cache.mlir): the entries' framing stays
intact, only their checksums can tell."""
import glob
import os
import sys

HEADER = 8 + 8 + 32  # magic, payload size, BLAKE3 of the payload
for path in glob.glob(os.path.join(sys.argv[1], "llvmcache-[0-9a-f]*")):
    with open(path, "r+b") as entry:
        data = bytearray(entry.read())
        where = HEADER + (len(data) - HEADER) // 2
        data[where] ^= 0xFF
        entry.seek(0)
        entry.write(data)
