//===- LaunchPlan.cpp - What the host code of a compiled module does ------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The host function is straight-line LLVM dialect code. It is evaluated over
// symbolic values: an integer or pointer is `base(buffer) + value`, where
// buffer -1 means "no buffer" (a plain number). Device allocations are at
// least 256-byte aligned, so the alignment arithmetic of memref lowering
// (`(p + a - 1) urem a`) is exact for every a dividing 256.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Measure/LaunchPlan.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::tessel;

/// Alignment every device allocation has at least.
static constexpr int64_t kBufferAlignment = 256;

int64_t PlanOutput::getNumElements() const {
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  return count;
}

SmallVector<const PlanLaunch *> LaunchPlan::getLaunches() const {
  SmallVector<const PlanLaunch *> launches;
  for (const PlanStep &step : steps)
    if (step.launch)
      launches.push_back(&*step.launch);
  return launches;
}

std::optional<std::string> mlir::tessel::getDTypeName(Type type) {
  if (type.isF32())
    return std::string("f32");
  if (type.isF16())
    return std::string("f16");
  if (type.isBF16())
    return std::string("bf16");
  if (type.isF64())
    return std::string("f64");
  // i1 is a byte an element in memory (LLVM's store size), 0 or 1.
  if (type.isInteger(1))
    return std::string("i1");
  if (type.isInteger(8))
    return std::string("i8");
  if (type.isInteger(32))
    return std::string("i32");
  if (type.isInteger(64) || type.isIndex())
    return std::string("i64");
  return std::nullopt;
}

int64_t mlir::tessel::getDTypeBytes(StringRef dtype) {
  return llvm::StringSwitch<int64_t>(dtype)
      .Cases({"f64", "i64"}, 8)
      .Cases({"f32", "i32"}, 4)
      .Cases({"f16", "bf16"}, 2)
      .Cases({"i8", "i1"}, 1)
      .Default(0);
}

namespace {

/// A symbolic host value.
struct HostValue {
  enum class Kind { Unknown, Scalar, Bytes, Aggregate };
  Kind kind = Kind::Unknown;
  /// Scalar: base of `buffer` (or 0 when -1) plus `value`.
  int64_t buffer = -1;
  int64_t value = 0;
  std::vector<uint8_t> bytes;
  std::vector<HostValue> elements;

  static HostValue scalar(int64_t value, int64_t buffer = -1) {
    HostValue v;
    v.kind = Kind::Scalar;
    v.value = value;
    v.buffer = buffer;
    return v;
  }
  bool isNumber() const { return kind == Kind::Scalar && buffer < 0; }
};

/// Bytes of an LLVM dialect type as laid out in memory (no structs).
std::optional<int64_t> getTypeBytes(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return 8;
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
    std::optional<int64_t> element = getTypeBytes(array.getElementType());
    if (!element)
      return std::nullopt;
    return *element * array.getNumElements();
  }
  if (auto vector = dyn_cast<VectorType>(type)) {
    std::optional<int64_t> element = getTypeBytes(vector.getElementType());
    if (!element || vector.isScalable())
      return std::nullopt;
    return *element * vector.getNumElements();
  }
  if (type.isIntOrFloat())
    return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
  return std::nullopt;
}

/// Raw little-endian bytes of a constant attribute.
std::optional<std::vector<uint8_t>> getConstantBytes(Attribute attr) {
  auto append = [](std::vector<uint8_t> &out, const APInt &bits) {
    unsigned bytes = std::max(1u, bits.getBitWidth() / 8);
    for (unsigned i = 0; i < bytes; ++i)
      out.push_back(static_cast<uint8_t>(bits.extractBitsAsZExtValue(8, 8 * i)));
  };
  std::vector<uint8_t> out;
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    append(out, f.getValue().bitcastToAPInt());
    return out;
  }
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    append(out, i.getValue());
    return out;
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    Type element = dense.getElementType();
    int64_t count = dense.getNumElements();
    out.reserve(count * std::max(1u, element.getIntOrFloatBitWidth() / 8));
    if (isa<FloatType>(element)) {
      if (dense.isSplat()) {
        APInt bits = dense.getSplatValue<APFloat>().bitcastToAPInt();
        for (int64_t i = 0; i < count; ++i)
          append(out, bits);
      } else {
        for (APFloat v : dense.getValues<APFloat>())
          append(out, v.bitcastToAPInt());
      }
      return out;
    }
    if (isa<IntegerType>(element) || element.isIndex()) {
      if (dense.isSplat()) {
        APInt bits = dense.getSplatValue<APInt>();
        for (int64_t i = 0; i < count; ++i)
          append(out, bits);
      } else {
        for (APInt v : dense.getValues<APInt>())
          append(out, v);
      }
      return out;
    }
  }
  return std::nullopt;
}

/// Evaluates one host function into a plan.
/// Whether `use` of a global's address only prints it on the host (the
/// message of a failing check).
bool isHostMessageUse(Operation *use) {
  auto call = dyn_cast<LLVM::CallOp>(use);
  return call && call.getCallee() &&
         (*call.getCallee() == "puts" || *call.getCallee() == "printf");
}

class HostEvaluator {
public:
  HostEvaluator(ModuleOp module, LaunchPlan &plan) : module(module), plan(plan) {}

  LogicalResult run(LLVM::LLVMFuncOp func, TypeRange argumentTypes,
                    TypeRange resultTypes);

private:
  LogicalResult bindArguments(LLVM::LLVMFuncOp func, TypeRange argumentTypes);
  LogicalResult evaluate(Operation *op);
  LogicalResult evaluateLaunch(gpu::LaunchFuncOp launch);
  LogicalResult evaluateReturn(LLVM::ReturnOp ret, TypeRange resultTypes);
  /// The successor a branch takes, with its block arguments bound.
  FailureOr<Block *> evaluateBranch(Operation *op);
  FailureOr<int64_t> getGlobalBuffer(LLVM::AddressOfOp op);
  FailureOr<int64_t> getNumber(Operation *user, Value value);

  HostValue get(Value value) const { return values.lookup(value); }

  ModuleOp module;
  LaunchPlan &plan;
  llvm::DenseMap<Value, HostValue> values;
  llvm::StringMap<int64_t> globalBuffers;
};

} // namespace

FailureOr<int64_t> HostEvaluator::getNumber(Operation *user, Value value) {
  HostValue v = get(value);
  if (!v.isNumber())
    return user->emitError("cannot plan the launch: operand is not a "
                           "host-known integer");
  return v.value;
}

LogicalResult HostEvaluator::bindArguments(LLVM::LLVMFuncOp func,
                                           TypeRange argumentTypes) {
  int64_t next = 0;
  auto arguments = func.getArguments();
  for (auto [index, type] : llvm::enumerate(argumentTypes)) {
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped || !isa<RankedTensorType, MemRefType>(type) ||
        !shaped.hasStaticShape() || !getDTypeName(shaped.getElementType()))
      return func.emitError() << "cannot plan argument " << index << " of type "
                              << type
                              << ": only statically shaped tensors and memrefs "
                                 "of f16, bf16, f32, f64, i1, i8, i32, i64 are "
                                 "supported";
    int64_t rank = shaped.getRank();
    if (next + 3 + 2 * rank > static_cast<int64_t>(arguments.size()))
      return func.emitError() << "host function has fewer arguments than the "
                                 "memref descriptors of its signature";
    PlanBuffer buffer;
    buffer.kind = PlanBuffer::Kind::Argument;
    buffer.argIndex = index;
    buffer.bytes = shaped.getNumElements() *
                   getDTypeBytes(*getDTypeName(shaped.getElementType()));
    int64_t id = plan.buffers.size();
    plan.buffers.push_back(std::move(buffer));
    values[arguments[next]] = HostValue::scalar(0, id);
    values[arguments[next + 1]] = HostValue::scalar(0, id);
    values[arguments[next + 2]] = HostValue::scalar(0);
    int64_t stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      values[arguments[next + 3 + d]] = HostValue::scalar(shaped.getDimSize(d));
      values[arguments[next + 3 + rank + d]] = HostValue::scalar(stride);
      stride *= shaped.getDimSize(d);
    }
    next += 3 + 2 * rank;
  }
  if (next != static_cast<int64_t>(arguments.size()))
    return func.emitError() << "host function has " << arguments.size()
                            << " arguments; its signature expands to " << next;
  return success();
}

FailureOr<int64_t> HostEvaluator::getGlobalBuffer(LLVM::AddressOfOp op) {
  StringRef name = op.getGlobalName();
  auto it = globalBuffers.find(name);
  if (it != globalBuffers.end())
    return it->second;
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global)
    return op.emitError() << "cannot plan: @" << name << " is not a global";
  std::optional<int64_t> bytes = getTypeBytes(global.getGlobalType());
  if (!bytes)
    return op.emitError() << "cannot plan: global @" << name
                          << " has an unsupported type";
  PlanBuffer buffer;
  buffer.kind = PlanBuffer::Kind::Constant;
  buffer.bytes = *bytes;
  if (std::optional<Attribute> value = global.getValue()) {
    std::optional<std::vector<uint8_t>> data = getConstantBytes(*value);
    if (!data || static_cast<size_t>(*bytes) != data->size())
      return op.emitError() << "cannot plan: initializer of global @" << name
                            << " is not dense data of its type";
    buffer.data = std::move(*data);
  } else {
    buffer.data.assign(*bytes, 0);
  }
  int64_t id = plan.buffers.size();
  plan.buffers.push_back(std::move(buffer));
  globalBuffers[name] = id;
  return id;
}

LogicalResult HostEvaluator::evaluateLaunch(gpu::LaunchFuncOp launch) {
  PlanLaunch out;
  out.module = launch.getKernelModuleName().str();
  out.kernel = launch.getKernelName().str();
  Value dims[6] = {launch.getGridSizeX(),  launch.getGridSizeY(),
                   launch.getGridSizeZ(),  launch.getBlockSizeX(),
                   launch.getBlockSizeY(), launch.getBlockSizeZ()};
  for (int i = 0; i < 6; ++i) {
    FailureOr<int64_t> n = getNumber(launch, dims[i]);
    if (failed(n))
      return failure();
    if (*n < 0 || *n > std::numeric_limits<uint32_t>::max())
      return launch.emitError()
             << "cannot plan the launch: " << (i < 3 ? "grid" : "block")
             << " size " << *n << " is out of range";
    (i < 3 ? out.grid[i] : out.block[i - 3]) = static_cast<uint32_t>(*n);
  }
  if (Value shared = launch.getDynamicSharedMemorySize()) {
    FailureOr<int64_t> n = getNumber(launch, shared);
    if (failed(n))
      return failure();
    if (*n < 0 || *n > std::numeric_limits<uint32_t>::max())
      return launch.emitError()
             << "cannot plan the launch: dynamic shared memory of " << *n
             << " bytes is out of range";
    out.sharedBytes = static_cast<uint32_t>(*n);
  }
  for (Value operand : launch.getKernelOperands()) {
    HostValue v = get(operand);
    Type type = operand.getType();
    PlanParam param;
    if (v.kind == HostValue::Kind::Scalar && v.buffer >= 0) {
      param.kind = PlanParam::Kind::Pointer;
      param.buffer = v.buffer;
      param.offset = v.value;
    } else if (v.kind == HostValue::Kind::Scalar &&
               (isa<LLVM::LLVMPointerType>(type) || type.isInteger(64))) {
      param.kind = PlanParam::Kind::I64;
      param.value = v.value;
    } else if (v.kind == HostValue::Kind::Scalar && type.isInteger(32)) {
      param.kind = PlanParam::Kind::I32;
      param.value = v.value;
    } else if (v.kind == HostValue::Kind::Scalar && type.isInteger()) {
      param.kind = PlanParam::Kind::Bytes;
      unsigned bytes = std::max(1u, type.getIntOrFloatBitWidth() / 8);
      for (unsigned i = 0; i < bytes; ++i)
        param.bytes.push_back(static_cast<uint8_t>(v.value >> (8 * i)));
    } else if (v.kind == HostValue::Kind::Bytes) {
      param.kind = PlanParam::Kind::Bytes;
      param.bytes = v.bytes;
    } else {
      return launch.emitError()
             << "cannot plan the launch: a kernel operand of type " << type
             << " has no host-known value";
    }
    out.params.push_back(std::move(param));
  }
  PlanStep step;
  step.launch = std::move(out);
  plan.steps.push_back(std::move(step));
  return success();
}

LogicalResult HostEvaluator::evaluateReturn(LLVM::ReturnOp ret,
                                            TypeRange resultTypes) {
  if (resultTypes.empty())
    return success();
  if (ret.getNumOperands() != 1)
    return ret.emitError("cannot plan: host function returns no value");
  HostValue returned = get(ret.getOperand(0));
  SmallVector<HostValue> descriptors;
  if (resultTypes.size() == 1)
    descriptors.push_back(returned);
  else
    descriptors.assign(returned.elements.begin(), returned.elements.end());
  if (descriptors.size() != resultTypes.size())
    return ret.emitError("cannot plan: the returned value does not hold one "
                         "descriptor per result");
  for (auto [index, type, descriptor] :
       llvm::enumerate(resultTypes, descriptors)) {
    auto shaped = dyn_cast<ShapedType>(type);
    std::optional<std::string> dtype =
        shaped ? getDTypeName(shaped.getElementType()) : std::nullopt;
    if (!shaped || !shaped.hasStaticShape() || !dtype)
      return ret.emitError() << "cannot plan result " << index << " of type "
                             << type;
    int64_t rank = shaped.getRank();
    auto &e = descriptor.elements;
    if (descriptor.kind != HostValue::Kind::Aggregate || e.size() < 3 ||
        e[1].kind != HostValue::Kind::Scalar || e[1].buffer < 0 ||
        !e[2].isNumber())
      return ret.emitError() << "cannot plan result " << index
                             << ": its buffer is not known on the host";
    // Row-major strides, as the function's identity layout says.
    if (rank > 0) {
      if (e.size() < 5 || e[4].elements.size() != static_cast<size_t>(rank))
        return ret.emitError() << "cannot plan result " << index
                               << ": malformed descriptor";
      int64_t stride = 1;
      for (int64_t d = rank - 1; d >= 0; --d) {
        const HostValue &s = e[4].elements[d];
        if (!s.isNumber() || (shaped.getDimSize(d) > 1 && s.value != stride))
          return ret.emitError() << "cannot plan result " << index
                                 << ": it is not contiguous row-major";
        stride *= shaped.getDimSize(d);
      }
    }
    PlanOutput output;
    output.buffer = e[1].buffer;
    output.offset = e[1].value + e[2].value * getDTypeBytes(*dtype);
    output.dtype = *dtype;
    output.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
    plan.outputs.push_back(std::move(output));
  }
  return success();
}

LogicalResult HostEvaluator::evaluate(Operation *op) {
  auto fail = [&](const Twine &why) {
    return op->emitError() << "cannot plan host op '" << op->getName()
                           << "': " << why;
  };
  auto number = [&](Value v) { return get(v); };
  auto setScalar = [&](int64_t value, int64_t buffer = -1) {
    values[op->getResult(0)] = HostValue::scalar(value, buffer);
    return success();
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](LLVM::ConstantOp c) -> LogicalResult {
        Attribute value = c.getValue();
        if (auto i = dyn_cast<IntegerAttr>(value);
            i && !isa<FloatType>(c.getType()))
          return setScalar(i.getValue().getSExtValue());
        std::optional<std::vector<uint8_t>> bytes = getConstantBytes(value);
        if (!bytes)
          return fail("unsupported constant");
        HostValue v;
        v.kind = HostValue::Kind::Bytes;
        v.bytes = std::move(*bytes);
        values[c.getResult()] = std::move(v);
        return success();
      })
      .Case([&](LLVM::ZeroOp) { return setScalar(0); })
      .Case<LLVM::PoisonOp, LLVM::UndefOp>([&](Operation *) {
        values[op->getResult(0)] = HostValue();
        return success();
      })
      .Case([&](LLVM::AddressOfOp a) -> LogicalResult {
        // The message of a host check (cf.assert) is read on the host only.
        if (llvm::all_of(a->getUsers(), isHostMessageUse)) {
          values[a.getResult()] = HostValue();
          return success();
        }
        FailureOr<int64_t> buffer = getGlobalBuffer(a);
        if (failed(buffer))
          return failure();
        return setScalar(0, *buffer);
      })
      .Case<LLVM::PtrToIntOp, LLVM::IntToPtrOp, LLVM::BitcastOp>(
          [&](Operation *) {
            values[op->getResult(0)] = get(op->getOperand(0));
            return success();
          })
      .Case([&](LLVM::GEPOp gep) -> LogicalResult {
        HostValue base = get(gep.getBase());
        if (base.kind != HostValue::Kind::Scalar)
          return fail("base pointer is not known");
        Type type = gep.getElemType();
        int64_t offset = 0;
        bool first = true;
        for (auto index : gep.getIndices()) {
          int64_t i;
          if (auto attr = dyn_cast<IntegerAttr>(index))
            i = attr.getInt();
          else if (HostValue v = get(cast<Value>(index)); v.isNumber())
            i = v.value;
          else
            return fail("index is not known");
          if (!first) {
            auto array = dyn_cast<LLVM::LLVMArrayType>(type);
            if (!array)
              return fail("only array aggregates are supported");
            type = array.getElementType();
          }
          std::optional<int64_t> bytes = getTypeBytes(type);
          if (!bytes)
            return fail("element type has no known size");
          offset += i * *bytes;
          first = false;
        }
        return setScalar(base.value + offset, base.buffer);
      })
      .Case([&](LLVM::AddOp add) -> LogicalResult {
        HostValue a = number(add.getLhs()), b = number(add.getRhs());
        if (a.kind != HostValue::Kind::Scalar ||
            b.kind != HostValue::Kind::Scalar || (a.buffer >= 0 && b.buffer >= 0))
          return fail("operands are not known");
        return setScalar(a.value + b.value, std::max(a.buffer, b.buffer));
      })
      .Case([&](LLVM::SubOp sub) -> LogicalResult {
        HostValue a = number(sub.getLhs()), b = number(sub.getRhs());
        if (a.kind != HostValue::Kind::Scalar ||
            b.kind != HostValue::Kind::Scalar)
          return fail("operands are not known");
        if (b.buffer < 0)
          return setScalar(a.value - b.value, a.buffer);
        if (a.buffer == b.buffer)
          return setScalar(a.value - b.value);
        return fail("difference of unrelated pointers");
      })
      .Case([&](LLVM::MulOp mul) -> LogicalResult {
        HostValue a = number(mul.getLhs()), b = number(mul.getRhs());
        if (!a.isNumber() || !b.isNumber())
          return fail("operands are not known numbers");
        return setScalar(a.value * b.value);
      })
      .Case([&](LLVM::AndOp a) -> LogicalResult {
        HostValue lhs = number(a.getLhs()), rhs = number(a.getRhs());
        if (lhs.isNumber() && rhs.isNumber())
          return setScalar(lhs.value & rhs.value);
        if (rhs.isNumber() && lhs.kind == HostValue::Kind::Scalar &&
            rhs.value >= 0 && llvm::isPowerOf2_64(rhs.value + 1) &&
            kBufferAlignment % (rhs.value + 1) == 0)
          // The low bits of an address below the allocation alignment.
          return setScalar(lhs.value & rhs.value);
        return fail("operands are not known");
      })
      .Case([&](LLVM::ICmpOp cmp) -> LogicalResult {
        HostValue lhs = number(cmp.getLhs()), rhs = number(cmp.getRhs());
        if (!lhs.isNumber() || !rhs.isNumber())
          return fail("operands are not known numbers");
        int64_t a = lhs.value, b = rhs.value;
        uint64_t ua = a, ub = b;
        bool result;
        switch (cmp.getPredicate()) {
        case LLVM::ICmpPredicate::eq: result = a == b; break;
        case LLVM::ICmpPredicate::ne: result = a != b; break;
        case LLVM::ICmpPredicate::slt: result = a < b; break;
        case LLVM::ICmpPredicate::sle: result = a <= b; break;
        case LLVM::ICmpPredicate::sgt: result = a > b; break;
        case LLVM::ICmpPredicate::sge: result = a >= b; break;
        case LLVM::ICmpPredicate::ult: result = ua < ub; break;
        case LLVM::ICmpPredicate::ule: result = ua <= ub; break;
        case LLVM::ICmpPredicate::ugt: result = ua > ub; break;
        case LLVM::ICmpPredicate::uge: result = ua >= ub; break;
        }
        return setScalar(result ? 1 : 0);
      })
      .Case<LLVM::URemOp, LLVM::UDivOp, LLVM::SRemOp, LLVM::SDivOp>(
          [&](Operation *) -> LogicalResult {
            HostValue a = number(op->getOperand(0));
            HostValue b = number(op->getOperand(1));
            if (!b.isNumber() || b.value <= 0 ||
                a.kind != HostValue::Kind::Scalar)
              return fail("operands are not known");
            bool rem = isa<LLVM::URemOp, LLVM::SRemOp>(op);
            if (a.buffer >= 0) {
              // Only the remainder of an address by a divisor of the
              // allocation alignment is known.
              if (!rem || kBufferAlignment % b.value != 0)
                return fail("address arithmetic beyond alignment");
              int64_t r = a.value % b.value;
              return setScalar(r < 0 ? r + b.value : r);
            }
            return setScalar(rem ? a.value % b.value : a.value / b.value);
          })
      .Case([&](LLVM::InsertValueOp insert) -> LogicalResult {
        HostValue aggregate = get(insert.getContainer());
        aggregate.kind = HostValue::Kind::Aggregate;
        HostValue *slot = &aggregate;
        for (int64_t position : insert.getPosition()) {
          slot->kind = HostValue::Kind::Aggregate;
          if (slot->elements.size() <= static_cast<size_t>(position))
            slot->elements.resize(position + 1);
          slot = &slot->elements[position];
        }
        *slot = get(insert.getValue());
        values[insert.getResult()] = std::move(aggregate);
        return success();
      })
      .Case([&](LLVM::ExtractValueOp extract) -> LogicalResult {
        HostValue v = get(extract.getContainer());
        for (int64_t position : extract.getPosition()) {
          if (v.kind != HostValue::Kind::Aggregate ||
              v.elements.size() <= static_cast<size_t>(position))
            return fail("element is not known");
          HostValue next = v.elements[position];
          v = std::move(next);
        }
        values[extract.getResult()] = std::move(v);
        return success();
      })
      .Case([&](LLVM::CallOp call) -> LogicalResult {
        std::optional<StringRef> callee = call.getCallee();
        if (!callee)
          return fail("indirect call");
        if (*callee == "free")
          return success();
        if (*callee == "malloc" || *callee == "aligned_alloc") {
          HostValue size = get(call.getOperands().back());
          if (!size.isNumber())
            return fail("allocation size is not known");
          PlanBuffer buffer;
          buffer.kind = PlanBuffer::Kind::Temporary;
          buffer.bytes = size.value;
          int64_t id = plan.buffers.size();
          plan.buffers.push_back(std::move(buffer));
          return setScalar(0, id);
        }
        return fail("call of @" + *callee);
      })
      .Case([&](LLVM::MemcpyOp copy) -> LogicalResult {
        HostValue dst = get(copy.getDst()), src = get(copy.getSrc());
        HostValue len = get(copy.getLen());
        if (dst.kind != HostValue::Kind::Scalar || dst.buffer < 0 ||
            src.kind != HostValue::Kind::Scalar || src.buffer < 0 ||
            !len.isNumber())
          return fail("copy between unknown buffers");
        PlanStep step;
        step.copy = PlanCopy{src.buffer, src.value, dst.buffer, dst.value,
                             len.value};
        plan.steps.push_back(std::move(step));
        return success();
      })
      .Case([&](gpu::LaunchFuncOp launch) { return evaluateLaunch(launch); })
      .Default([&](Operation *) { return fail("unsupported operation"); });
}

LogicalResult HostEvaluator::run(LLVM::LLVMFuncOp func,
                                 TypeRange argumentTypes,
                                 TypeRange resultTypes) {
  if (func.isExternal())
    return func.emitError("cannot plan a function without a body");
  if (failed(bindArguments(func, argumentTypes)))
    return failure();
  // Straight-line code, but for the branches of host checks (cf.assert):
  // each block runs at most once, every branch condition is known.
  llvm::SmallPtrSet<Block *, 8> visited;
  Block *block = &func.getBody().front();
  while (block) {
    if (!visited.insert(block).second)
      return func.emitError(
          "cannot plan host code with control flow (a loop left on the "
          "host)");
    Block *next = nullptr;
    for (Operation &op : *block) {
      if (auto ret = dyn_cast<LLVM::ReturnOp>(op))
        return evaluateReturn(ret, resultTypes);
      if (isa<LLVM::BrOp, LLVM::CondBrOp>(op)) {
        FailureOr<Block *> taken = evaluateBranch(&op);
        if (failed(taken))
          return failure();
        next = *taken;
        break;
      }
      if (failed(evaluate(&op)))
        return failure();
    }
    if (!next)
      return func.emitError("host function has no return");
    block = next;
  }
  return failure();
}

FailureOr<Block *> HostEvaluator::evaluateBranch(Operation *op) {
  Block *dest;
  OperandRange operands = op->getOperands();
  if (auto br = dyn_cast<LLVM::BrOp>(op)) {
    dest = br.getDest();
    operands = br.getDestOperands();
  } else {
    auto cond = cast<LLVM::CondBrOp>(op);
    HostValue condition = get(cond.getCondition());
    if (!condition.isNumber())
      return op->emitError(
          "cannot plan host code with control flow (a branch on a value not "
          "known before the run)");
    bool taken = condition.value & 1;
    dest = taken ? cond.getTrueDest() : cond.getFalseDest();
    operands = taken ? cond.getTrueDestOperands() : cond.getFalseDestOperands();
  }
  // A failing host check: the block prints its message and aborts.
  for (Operation &inner : *dest)
    if (auto call = dyn_cast<LLVM::CallOp>(inner);
        call && call.getCallee() == "abort") {
      std::string message = "a check of the host code fails";
      for (Operation &print : *dest)
        if (auto puts = dyn_cast<LLVM::CallOp>(print);
            puts && puts.getCallee() == "puts" && puts.getNumOperands() == 1)
          if (auto address =
                  puts.getOperand(0).getDefiningOp<LLVM::AddressOfOp>())
            if (auto global =
                    module.lookupSymbol<LLVM::GlobalOp>(address.getGlobalName()))
              if (auto text = dyn_cast_or_null<StringAttr>(
                      global.getValueOrNull()))
                message += ": " + text.getValue().rtrim('\0').str();
      return op->emitError("cannot plan: ") << message;
    }
  for (auto [arg, operand] : llvm::zip(dest->getArguments(), operands))
    values[arg] = get(operand);
  return dest;
}

/// Reads the cubins and the ptxas resources of every gpu.binary.
static LogicalResult collectBinaries(ModuleOp module, LaunchPlan &plan,
                                     llvm::StringMap<llvm::StringMap<
                                         KernelResources>> &resources) {
  WalkResult result = module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (!object || (object.getFormat() != gpu::CompilationTarget::Binary &&
                      object.getFormat() != gpu::CompilationTarget::Fatbin))
        continue;
      plan.binaries[binary.getSymName().str()] =
          object.getObject().getValue().str();
      if (DictionaryAttr props = object.getProperties())
        if (auto kernels = props.getAs<DictionaryAttr>("tessel.kernels"))
          for (NamedAttribute kernel : kernels)
            if (auto dict = dyn_cast<DictionaryAttr>(kernel.getValue()))
              resources[binary.getSymName()][kernel.getName()] =
                  KernelResources::fromAttribute(kernel.getName(), dict);
      return WalkResult::advance();
    }
    binary.emitError("cannot plan: gpu.binary holds no cubin or fatbin "
                     "(compile with format=bin or format=fatbin)");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

FailureOr<LaunchPlan> mlir::tessel::extractLaunchPlan(ModuleOp compiled,
                                                StringRef funcName,
                                                TypeRange argumentTypes,
                                                TypeRange resultTypes) {
  auto func = compiled.lookupSymbol<LLVM::LLVMFuncOp>(funcName);
  if (!func)
    return compiled.emitError() << "no host function @" << funcName
                                << " in the LLVM dialect (run --tessel-to-cuda "
                                   "first)";
  LaunchPlan plan;
  llvm::StringMap<llvm::StringMap<KernelResources>> resources;
  if (failed(collectBinaries(compiled, plan, resources)))
    return failure();
  HostEvaluator evaluator(compiled, plan);
  if (failed(evaluator.run(func, argumentTypes, resultTypes)))
    return failure();

  auto facts = compiled->getAttrOfType<DictionaryAttr>(kKernelFactsAttrName);
  for (PlanStep &step : plan.steps) {
    if (!step.launch)
      continue;
    PlanLaunch &launch = *step.launch;
    if (!plan.binaries.count(launch.module))
      return func.emitError() << "cannot plan: no binary for kernel module @"
                              << launch.module;
    auto byKernel = resources.find(launch.module);
    if (byKernel != resources.end()) {
      auto it = byKernel->second.find(launch.kernel);
      if (it != byKernel->second.end())
        launch.resources = it->second;
    }
    if (launch.resources.name.empty())
      launch.resources.name = launch.kernel;
    if (facts)
      if (auto kernelFacts = facts.getAs<DictionaryAttr>(launch.module))
        launch.facts = KernelFacts::fromAttribute(kernelFacts);
  }
  return plan;
}
