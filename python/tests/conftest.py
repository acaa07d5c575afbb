"""Fixtures of the tessel package's tests (run by lit: test/python/)."""

import os
import pathlib

import pytest

MATMUL = """\
func.func @matmul(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>,
                  %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>)
                     outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
"""

# The same matmul twice and a smaller one: two tasks, the first of weight 2.
TWO_TASKS = """\
func.func @model(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>,
                 %c: tensor<128x64xf32>, %d: tensor<64x32xf32>,
                 %e: tensor<128x32xf32>) -> tensor<128x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>)
                     outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>)
                     outs(%0 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %2 = linalg.matmul ins(%1, %d : tensor<128x64xf32>, tensor<64x32xf32>)
                     outs(%e : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %2 : tensor<128x32xf32>
}
"""


@pytest.fixture
def tmp_db(tmp_path: pathlib.Path) -> str:
    return str(tmp_path / "records.db")


def have_ptxas() -> bool:
    root = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    return os.path.exists(os.path.join(root, "bin", "ptxas"))
