//===- Im2Col.h - 2-D convolutions as im2col and a matmul -------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A 2-D convolution is a matmul of its filter and the patches of its input
// ("im2col"): materializing the patches costs a copy KH x KW times the input
// but turns the convolution into a plain `linalg.matmul`, which every matmul
// sketch fits, tensor cores included. Tessel rewrites the two layouts whose
// matmul is plain:
//
//   NHWC/HWCF (any batch): cols[(n, oh, ow), (kh, kw, c)] @ W[(kh, kw, c), f]
//   NCHW/FCHW (batch 1):   W[f, (c, kh, kw)] @ cols[(c, kh, kw), (oh, ow)]
//
// The patches are a `linalg.generic` copy (none for a 1x1 window of stride
// 1, whose patches are the input reshaped), the operands and the result are
// reshaped with `tensor.collapse_shape`/`expand_shape` (views after
// bufferization), and every new op carries the convolution's location.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_IM2COL_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_IM2COL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir {
namespace tessel {

/// Empty when `op` is a convolution Tessel rewrites as im2col and a matmul
/// (a static `linalg.conv_2d_nhwc_hwcf`, or `linalg.conv_2d_nchw_fchw` of
/// batch 1); otherwise why not.
std::string getIm2ColBlocker(linalg::LinalgOp op);

/// Rewrites `op` (getIm2ColBlocker is empty) as the patches copy, a
/// `linalg.matmul` and the reshape of its result, which replaces `op`.
/// Returns the matmul.
FailureOr<linalg::MatmulOp> rewriteConvAsIm2ColMatmul(RewriterBase &rewriter,
                                                      linalg::LinalgOp op);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_IM2COL_H
