//===- TensorCore.cpp - Ops a tensor_core sketch fits ---------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/IR/TensorCore.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

using namespace mlir;
using namespace mlir::tessel;

/// The instruction shapes: m16n8k16 on 16-bit floats, m16n8k8 in TF32.
static constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16, kMmaKTf32 = 8;

/// The loops (by dim position) a projected-permutation map indexes.
static SmallVector<unsigned> indexedLoops(AffineMap map) {
  SmallVector<unsigned> loops;
  for (AffineExpr e : map.getResults())
    loops.push_back(cast<AffineDimExpr>(e).getPosition());
  return loops;
}

FailureOr<MatmulLoops> tessel::getMatmulLoops(linalg::LinalgOp op,
                                              std::string *reason) {
  auto fail = [&](const Twine &why) -> FailureOr<MatmulLoops> {
    if (reason)
      *reason = why.str();
    return failure();
  };
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return fail("tensor_core needs two inputs and one output");
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (AffineMap map : maps)
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return fail("tensor_core needs operands indexed by loops (no "
                  "convolution windows)");
  if (!linalg::isaContractionOpInterface(op))
    return fail("tensor_core needs a contraction (a multiply-add body)");
  SmallVector<unsigned> a = indexedLoops(maps[0]), b = indexedLoops(maps[1]),
                        c = indexedLoops(maps[2]);
  if (a.size() < 2 || b.size() < 2 || c.size() < 2)
    return fail("tensor_core needs matrix operands");
  MatmulLoops loops;
  unsigned numM = 0, numN = 0, numK = 0;
  for (unsigned loop = 0; loop < op.getNumLoops(); ++loop) {
    bool inA = llvm::is_contained(a, loop), inB = llvm::is_contained(b, loop),
         inC = llvm::is_contained(c, loop);
    if (inA && inB && inC)
      loops.batch.push_back(loop);
    else if (inA && inC && !inB)
      loops.m = loop, ++numM;
    else if (inB && inC && !inA)
      loops.n = loop, ++numN;
    else if (inA && inB && !inC)
      loops.k = loop, ++numK;
    else
      return fail("tensor_core needs every loop in two or three operands");
  }
  if (numM != 1 || numN != 1 || numK != 1)
    return fail("tensor_core needs exactly one M, one N and one K loop");
  // Batch loops lead every operand; the matrix dims follow in either order,
  // except the output's, which must be row-major (M, N).
  auto isMatrixPair = [&](ArrayRef<unsigned> dims, unsigned x, unsigned y) {
    ArrayRef<unsigned> tail = dims.take_back(2);
    return (tail[0] == x && tail[1] == y) || (tail[0] == y && tail[1] == x);
  };
  if (!isMatrixPair(a, loops.m, loops.k) ||
      !isMatrixPair(b, loops.k, loops.n) || c.back() != loops.n ||
      c[c.size() - 2] != loops.m)
    return fail("tensor_core needs batch dims first and a row-major (M, N) "
                "output");
  return loops;
}

std::string tessel::getTensorCoreBlocker(linalg::LinalgOp op) {
  std::string reason;
  FailureOr<MatmulLoops> loops = getMatmulLoops(op, &reason);
  if (failed(loops))
    return reason;
  Type a = getElementTypeOrSelf(op.getDpsInputOperand(0)->get().getType());
  Type b = getElementTypeOrSelf(op.getDpsInputOperand(1)->get().getType());
  Type c = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  bool tf32 = a.isF32() && b.isF32();
  bool bf16 = a.isBF16() && b.isBF16();
  if (!tf32 && !bf16 && (!a.isF16() || !b.isF16()))
    return "tensor_core needs two f16 or two bf16 inputs (or two f32 inputs, "
           "computed in TF32)";
  if (tf32 && !c.isF32())
    return "tensor_core accumulates TF32 products in f32";
  if (bf16 && !c.isF32())
    return "tensor_core accumulates bf16 products in f32";
  if (!c.isF32() && !c.isF16())
    return "tensor_core accumulates f16 products in f32 or f16";
  // The body must multiply the (extended) inputs and add: a plain
  // contraction, no other arithmetic the mma instruction would skip.
  Block &body = op->getRegion(0).front();
  for (Operation &inner : body.without_terminator())
    if (!isa<arith::ExtFOp, arith::MulFOp, arith::AddFOp>(inner))
      return "tensor_core needs a body of extf, mulf and addf only";
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  auto check = [&](unsigned loop, int64_t multiple, StringRef name) {
    if (ShapedType::isDynamic(extents[loop]) || extents[loop] % multiple)
      return "tensor_core needs the " + name.str() +
             " extent to be a multiple of " + std::to_string(multiple) +
             "; loop " + std::to_string(loop) + " has " +
             std::to_string(extents[loop]);
    return std::string();
  };
  for (auto [loop, multiple, name] :
       {std::tuple{loops->m, kMmaM, "M"}, std::tuple{loops->n, kMmaN, "N"},
        std::tuple{loops->k, tf32 ? kMmaKTf32 : kMmaK, "K"}})
    if (std::string why = check(loop, multiple, name); !why.empty())
      return why;
  return "";
}

bool tessel::isTf32Contraction(linalg::LinalgOp op) {
  return llvm::all_of(op.getDpsInputOperands(), [](OpOperand *input) {
    return getElementTypeOrSelf(input->get().getType()).isF32();
  });
}

SmallVector<int64_t> tessel::getMmaLevelExtents(linalg::LinalgOp op) {
  FailureOr<MatmulLoops> loops = getMatmulLoops(op);
  SmallVector<int64_t> extents(op.getNumLoops(), 1);
  if (failed(loops))
    return extents;
  extents[loops->m] = kMmaM;
  extents[loops->n] = kMmaN;
  extents[loops->k] = isTf32Contraction(op) ? kMmaKTf32 : kMmaK;
  return extents;
}
