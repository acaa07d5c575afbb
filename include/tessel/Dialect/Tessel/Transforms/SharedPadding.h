//===- SharedPadding.h - Padded rows of promoted shared tiles ---*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_SHAREDPADDING_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_SHAREDPADDING_H

#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir {
namespace tessel {

/// Pads each row (innermost dimension) of the workgroup tile that
/// `transform.structured.promote` made for `operand` (of a linalg op) by `pad`
/// elements: the tile's byte array grows, its view gets the padded shape,
/// and the op and the copy into the tile read and write the unpadded
/// elements through a strided subview (row pitch `rows + pad`). The
/// operand must be such a promoted tile (a static, identity-layout
/// `memref.view` of a workgroup `memref.alloca` of bytes, possibly under
/// promote's partial subview) used by linalg ops only. Fails with `why`
/// and leaves the IR alone otherwise.
LogicalResult padPromotedTile(RewriterBase &rewriter, OpOperand &operand,
                              int64_t pad, std::string &why);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_SHAREDPADDING_H
