"""Writes the float32 values given on the command line to a file.

usage: write-floats.py FILE VALUE...
"""
import struct
import sys

with open(sys.argv[1], "wb") as out:
    out.write(struct.pack("<%df" % (len(sys.argv) - 2),
                          *map(float, sys.argv[2:])))
