//===- Reference.cpp - Inputs and expected outputs of a function ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Measure/Reference.h"
#include "tessel/Tuning/Measure/LaunchPlan.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"

#include <cmath>
#include <cstring>
#include <mutex>

using namespace mlir;
using namespace mlir::tessel;

int64_t HostTensor::getNumElements() const {
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  return count;
}

namespace {
/// splitmix64: identical on every platform.
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};
} // namespace

/// Stores `value` as `dtype` at `out`.
static void storeElement(StringRef dtype, double value, uint8_t *out) {
  if (dtype == "f32") {
    float v = static_cast<float>(value);
    std::memcpy(out, &v, 4);
  } else if (dtype == "f64") {
    std::memcpy(out, &value, 8);
  } else if (dtype == "f16" || dtype == "bf16") {
    llvm::APFloat v(value);
    bool lost;
    v.convert(dtype == "f16" ? llvm::APFloat::IEEEhalf()
                             : llvm::APFloat::BFloat(),
              llvm::APFloat::rmNearestTiesToEven, &lost);
    uint16_t bits = static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue());
    std::memcpy(out, &bits, 2);
  } else {
    int64_t v = static_cast<int64_t>(value);
    std::memcpy(out, &v, getDTypeBytes(dtype));
  }
}

/// Reads an element of `dtype` at `in` as a double.
static double loadElement(StringRef dtype, const uint8_t *in) {
  if (dtype == "f32") {
    float v;
    std::memcpy(&v, in, 4);
    return v;
  }
  if (dtype == "f64") {
    double v;
    std::memcpy(&v, in, 8);
    return v;
  }
  if (dtype == "f16" || dtype == "bf16") {
    uint16_t bits;
    std::memcpy(&bits, in, 2);
    llvm::APFloat v(dtype == "f16" ? llvm::APFloat::IEEEhalf()
                                   : llvm::APFloat::BFloat(),
                    llvm::APInt(16, bits));
    return v.convertToDouble();
  }
  int64_t v = 0;
  std::memcpy(&v, in, getDTypeBytes(dtype));
  if (dtype == "i8")
    return static_cast<int8_t>(v);
  if (dtype == "i1")
    return static_cast<double>(v & 1);
  if (dtype == "i32")
    return static_cast<int32_t>(v);
  return static_cast<double>(v);
}

llvm::Expected<std::vector<HostTensor>>
mlir::tessel::makeRandomInputs(TypeRange types, uint64_t seed) {
  Random random{seed};
  std::vector<HostTensor> inputs;
  for (auto [index, type] : llvm::enumerate(types)) {
    auto shaped = dyn_cast<ShapedType>(type);
    std::optional<std::string> dtype =
        shaped ? getDTypeName(shaped.getElementType()) : std::nullopt;
    if (!shaped || !shaped.hasStaticShape() || !dtype)
      return llvm::createStringError(
          "argument " + std::to_string(index) +
          " is not a statically shaped tensor of a supported element type");
    HostTensor tensor;
    tensor.dtype = *dtype;
    tensor.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
    int64_t bytes = getDTypeBytes(*dtype);
    tensor.data.resize(tensor.getNumElements() * bytes);
    bool isFloat = isa<FloatType>(shaped.getElementType());
    for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
      double value;
      if (isFloat) {
        value = 0.5 + random.uniform();
        if (random.next() & 1)
          value = -value;
      } else if (*dtype == "i1") {
        value = static_cast<double>(random.next() & 1);
      } else {
        value = 1 + static_cast<double>(random.next() % 4);
      }
      storeElement(*dtype, value, tensor.data.data() + i * bytes);
    }
    inputs.push_back(std::move(tensor));
  }
  return inputs;
}

/// Moves the reduction loops of every linalg op with one output outside the
/// parallel loop that walks the output's last dimension, which becomes the
/// innermost loop: a 4096^3 matmul's `(i, j, k)` runs as `(i, k, j)`, whose
/// inner loop walks rows of B and C and vectorizes, instead of a column of B
/// (minutes for the largest GPU check shapes, before the first measurement).
/// Each output element still sums its terms in the same order, so the
/// results are the same to the bit.
static void interchangeForLocality(ModuleOp module) {
  SmallVector<linalg::LinalgOp> ops;
  module.walk([&](linalg::LinalgOp op) {
    if (op.getNumReductionLoops() > 0 && op.getNumDpsInits() == 1)
      ops.push_back(op);
  });
  IRRewriter rewriter(module.getContext());
  for (linalg::LinalgOp op : ops) {
    AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (output.getNumResults() == 0)
      continue;
    auto last = dyn_cast<AffineDimExpr>(output.getResults().back());
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    if (!last || last.getPosition() + 1 == iterators.size())
      continue;
    unsigned inner = last.getPosition();
    SmallVector<unsigned> order;
    for (auto [index, type] : llvm::enumerate(iterators))
      if (type == utils::IteratorType::parallel && index != inner)
        order.push_back(index);
    for (auto [index, type] : llvm::enumerate(iterators))
      if (type == utils::IteratorType::reduction)
        order.push_back(index);
    order.push_back(inner);
    rewriter.setInsertionPoint(op);
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic) {
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generalized))
        continue;
      generic = *generalized;
    }
    (void)linalg::interchangeGenericOp(rewriter, generic, order);
  }
}

/// Bufferizes and lowers the unscheduled module to the LLVM dialect.
static LogicalResult lowerForCpu(ModuleOp module) {
  interchangeForLocality(module);
  PassManager pm(module.getContext());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  return pm.run(module);
}

namespace {
/// A memref descriptor of any rank in the layout of the C interface.
struct Descriptor {
  std::vector<int64_t> words;
  Descriptor(ArrayRef<int64_t> shape, void *data) {
    words.assign(3 + 2 * shape.size(), 0);
    words[0] = words[1] = reinterpret_cast<int64_t>(data);
    int64_t stride = 1;
    for (int64_t i = shape.size() - 1; i >= 0; --i) {
      words[3 + i] = shape[i];
      words[3 + shape.size() + i] = stride;
      stride *= shape[i];
    }
  }
};
} // namespace

llvm::Expected<std::vector<HostTensor>>
mlir::tessel::runReferenceOnCpu(ModuleOp source, StringRef funcName,
                          ArrayRef<HostTensor> inputs) {
  static std::once_flag initTargets;
  std::call_once(initTargets, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });

  OwningOpRef<ModuleOp> module(cast<ModuleOp>(source->clone()));
  auto func = module->lookupSymbol<func::FuncOp>(funcName);
  if (!func)
    return llvm::createStringError("no function @" + funcName.str());
  if (func.getNumArguments() != inputs.size())
    return llvm::createStringError("@" + funcName.str() + " takes " +
                                   std::to_string(func.getNumArguments()) +
                                   " arguments, got " +
                                   std::to_string(inputs.size()));
  // Schedules do not change what a function computes; drop them so that the
  // CPU lowering sees plain linalg.
  module->walk([](Operation *op) {
    SmallVector<StringAttr> names;
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (attr.getName().getValue().starts_with("tessel."))
        names.push_back(attr.getName());
    for (StringAttr name : names)
      op->removeDiscardableAttr(name);
  });
  std::vector<HostTensor> outputs;
  for (Type type : func.getResultTypes()) {
    auto shaped = dyn_cast<ShapedType>(type);
    std::optional<std::string> dtype =
        shaped ? getDTypeName(shaped.getElementType()) : std::nullopt;
    if (!shaped || !shaped.hasStaticShape() || !dtype)
      return llvm::createStringError(
          "results must be statically shaped tensors of a supported type");
    HostTensor out;
    out.dtype = *dtype;
    out.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
    outputs.push_back(std::move(out));
  }
  func->setAttr("llvm.emit_c_interface", UnitAttr::get(module->getContext()));

  std::string diagnostics;
  {
    ScopedDiagnosticHandler capture(module->getContext(), [&](Diagnostic &d) {
      llvm::raw_string_ostream os(diagnostics);
      os << d << "\n";
      return success();
    });
    if (failed(lowerForCpu(*module)))
      return llvm::createStringError("cannot lower @" + funcName.str() +
                                     " for the CPU reference: " + diagnostics);
  }
  // Optimized for this CPU (its vector width, f16 conversions).
  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return machineBuilder.takeError();
  auto machine = machineBuilder->createTargetMachine();
  if (!machine)
    return machine.takeError();
  ExecutionEngineOptions options;
  options.transformer = makeOptimizingTransformer(2, 0, machine->get());
  auto engine = ExecutionEngine::create(*module, options);
  if (!engine)
    return engine.takeError();

  // Inputs are copied: the function may write into an argument.
  std::vector<std::vector<uint8_t>> copies;
  std::vector<Descriptor> descriptors;
  for (const HostTensor &input : inputs)
    copies.push_back(input.data);
  for (auto [input, copy] : llvm::zip(inputs, copies))
    descriptors.emplace_back(input.shape, copy.data());
  // Results: one descriptor, or a struct of descriptors, at the first
  // argument.
  std::vector<int64_t> resultWords;
  for (const HostTensor &out : outputs)
    resultWords.resize(resultWords.size() + 3 + 2 * out.shape.size(), 0);
  std::vector<void *> pointers;
  if (!outputs.empty())
    pointers.push_back(resultWords.data());
  for (Descriptor &d : descriptors)
    pointers.push_back(d.words.data());
  std::vector<void *> args;
  for (void *&p : pointers)
    args.push_back(&p);
  if (llvm::Error error =
          (*engine)->invokePacked("_mlir_ciface_" + funcName.str(), args))
    return std::move(error);
  size_t word = 0;
  for (HostTensor &out : outputs) {
    auto *aligned = reinterpret_cast<uint8_t *>(resultWords[word + 1]);
    int64_t offset = resultWords[word + 2];
    int64_t bytes = getDTypeBytes(out.dtype);
    const uint8_t *begin = aligned + offset * bytes;
    out.data.assign(begin, begin + out.getNumElements() * bytes);
    word += 3 + 2 * out.shape.size();
  }
  return outputs;
}

llvm::Expected<ReferenceData> mlir::tessel::computeReference(ModuleOp source,
                                                       StringRef funcName,
                                                       uint64_t seed) {
  auto func = source.lookupSymbol<func::FuncOp>(funcName);
  if (!func)
    return llvm::createStringError("no function @" + funcName.str());
  ReferenceData data;
  auto inputs = makeRandomInputs(func.getArgumentTypes(), seed);
  if (!inputs)
    return inputs.takeError();
  data.inputs = std::move(*inputs);
  auto outputs = runReferenceOnCpu(source, funcName, data.inputs);
  if (!outputs)
    return outputs.takeError();
  data.outputs = std::move(*outputs);
  return data;
}

Tolerance mlir::tessel::getTolerance(const HostTensor &expected, bool tf32) {
  double maxAbs = 0;
  int64_t bytes = getDTypeBytes(expected.dtype);
  for (int64_t i = 0, e = expected.getNumElements(); i < e; ++i)
    maxAbs = std::max(maxAbs,
                      std::fabs(loadElement(expected.dtype,
                                            expected.data.data() + i * bytes)));
  if (expected.dtype == "f64")
    return {1e-9, 1e-12 * maxAbs};
  // TF32 inputs are rounded (or truncated) to 10 mantissa bits: each
  // product is off by up to about 2^-10 of itself, and a sum of K of them
  // by about sqrt(K) times that, while the sums themselves grow like
  // sqrt(K): a bound in terms of the largest magnitude holds for any K.
  if (expected.dtype == "f32" && tf32)
    return {1e-3, 2e-3 * maxAbs + 1e-5};
  if (expected.dtype == "f32")
    return {1e-4, 1e-5 * maxAbs + 1e-6};
  if (expected.dtype == "f16" || expected.dtype == "bf16")
    return {2e-2, 1e-2 * maxAbs + 1e-3};
  return {0, 0};
}
