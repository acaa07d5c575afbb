//===- TesselAttrs.cpp - Tessel sketch and config attributes --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/IR/TesselAttrs.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tessel;

#include "tessel/Dialect/Tessel/IR/TesselEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tessel/Dialect/Tessel/IR/TesselAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Parses `[1, 2, 3]` (possibly empty) into `values`.
static ParseResult parseIntList(AsmParser &parser,
                                SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t value;
        if (parser.parseInteger(value))
          return failure();
        values.push_back(value);
        return success();
      });
}

static void printIntList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

//===----------------------------------------------------------------------===//
// SketchAttr
//===----------------------------------------------------------------------===//

StringRef SketchAttr::getDefaultStructure(SketchKind kind) {
  switch (kind) {
  case SketchKind::MultiLevelTiling:
    return "SSSRRSRS";
  case SketchKind::CrossThreadReduction:
    return "SRR";
  case SketchKind::TwoLevelInjective:
    return "SS";
  case SketchKind::TensorCore:
    return "SSRRSSR";
  }
  llvm_unreachable("unknown sketch kind");
}

unsigned SketchAttr::getNumSpaceLevels() const {
  return llvm::count(getStructure(), 'S');
}

unsigned SketchAttr::getNumReductionLevels() const {
  return llvm::count(getStructure(), 'R');
}

std::optional<unsigned> SketchAttr::getThreadLevel() const {
  switch (getKind()) {
  case SketchKind::MultiLevelTiling:
    return 2;
  case SketchKind::TwoLevelInjective:
    return 1;
  case SketchKind::CrossThreadReduction:
  case SketchKind::TensorCore:
    return std::nullopt;
  }
  llvm_unreachable("unknown sketch kind");
}

std::optional<unsigned> SketchAttr::getWarpLevel() const {
  if (getKind() == SketchKind::TensorCore)
    return 1;
  return std::nullopt;
}

std::optional<unsigned> SketchAttr::getVThreadLevel() const {
  if (getKind() == SketchKind::MultiLevelTiling)
    return 1;
  return std::nullopt;
}

std::optional<unsigned> SketchAttr::getReductionThreadLevel() const {
  if (getKind() == SketchKind::CrossThreadReduction)
    return 1;
  return std::nullopt;
}

LogicalResult SketchAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 SketchKind kind, StringRef structure,
                                 ArrayRef<int64_t> shared,
                                 bool registerAccumulator,
                                 int64_t fusedConsumers,
                                 ArrayRef<int64_t> inlined) {
  if (structure.empty() || structure.find_first_not_of("SR") != StringRef::npos)
    return emitError() << "sketch structure '" << structure
                       << "' must be a non-empty string of 'S' (space level) "
                          "and 'R' (reduction level)";
  switch (kind) {
  case SketchKind::MultiLevelTiling:
    if (!structure.starts_with("SSSR"))
      return emitError()
             << "multi_level_tiling structure '" << structure
             << "' must start with \"SSSR\" (block, virtual thread and "
                "thread levels, then the shared-memory staging level)";
    break;
  case SketchKind::TensorCore:
    if (structure != getDefaultStructure(kind))
      return emitError() << "tensor_core structure must be \""
                         << getDefaultStructure(kind) << "\", got \""
                         << structure << "\"";
    if (shared.size() != 2 || shared[0] != 0 || shared[1] != 1)
      return emitError() << "tensor_core sketches stage both operands in "
                            "shared memory: shared = [0, 1]";
    if (registerAccumulator)
      return emitError() << "tensor_core sketches keep their accumulators in "
                            "mma registers; register_accumulator does not apply";
    if (fusedConsumers != 0 || !inlined.empty())
      return emitError() << "tensor_core sketches fuse no consumer and inline "
                            "no producer";
    break;
  case SketchKind::CrossThreadReduction:
  case SketchKind::TwoLevelInjective: {
    StringRef expected = getDefaultStructure(kind);
    if (structure != expected)
      return emitError() << stringifySketchKind(kind) << " structure must be \""
                         << expected << "\", got \"" << structure << "\"";
    if (!shared.empty())
      return emitError() << stringifySketchKind(kind)
                         << " sketches stage no operand in shared memory";
    if (registerAccumulator)
      return emitError() << "register_accumulator needs a multi_level_tiling "
                            "sketch";
    break;
  }
  }
  for (auto [i, operand] : llvm::enumerate(shared)) {
    if (operand < 0)
      return emitError() << "shared operand index " << operand
                         << " is negative";
    if (i > 0 && operand <= shared[i - 1])
      return emitError() << "shared operands must be strictly increasing, got "
                         << shared[i - 1] << " then " << operand;
  }
  if (fusedConsumers < 0)
    return emitError() << "fused_consumers must be non-negative, got "
                       << fusedConsumers;
  for (auto [i, operand] : llvm::enumerate(inlined)) {
    if (i > 0 && operand <= inlined[i - 1])
      return emitError() << "inlined operands must be strictly increasing, "
                            "got "
                         << inlined[i - 1] << " then " << operand;
    if (!llvm::is_contained(shared, operand))
      return emitError() << "inlined operand " << operand
                         << " must also be staged in shared memory (the "
                            "cooperative load computes the inlined producer)";
  }
  return success();
}

// #tessel.sketch<kind [, "STRUCT"] [, shared = [..]] [, register_accumulator]
//                [, fused_consumers = N] [, inlined = [..]]>
Attribute SketchAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  StringRef kindName;
  if (parser.parseLess() || parser.parseKeyword(&kindName))
    return {};
  std::optional<SketchKind> kind = symbolizeSketchKind(kindName);
  if (!kind) {
    parser.emitError(loc) << "unknown sketch kind '" << kindName
                          << "'; expected multi_level_tiling, "
                             "cross_thread_reduction, two_level_injective or "
                             "tensor_core";
    return {};
  }
  std::string structure = getDefaultStructure(*kind).str();
  SmallVector<int64_t> shared;
  bool registerAccumulator = false;
  int64_t fusedConsumers = 0;
  SmallVector<int64_t> inlined;
  bool first = true;
  while (succeeded(parser.parseOptionalComma())) {
    std::string str;
    if (first && succeeded(parser.parseOptionalString(&str))) {
      structure = str;
      first = false;
      continue;
    }
    first = false;
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return {};
    if (key == "shared") {
      if (parser.parseEqual() || parseIntList(parser, shared))
        return {};
    } else if (key == "register_accumulator") {
      registerAccumulator = true;
    } else if (key == "fused_consumers") {
      if (parser.parseEqual() || parser.parseInteger(fusedConsumers))
        return {};
    } else if (key == "inlined") {
      if (parser.parseEqual() || parseIntList(parser, inlined))
        return {};
    } else {
      parser.emitError(keyLoc) << "unknown sketch parameter '" << key
                               << "'; expected shared, register_accumulator, "
                                  "fused_consumers or inlined";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, ctx, *kind,
                    structure, shared, registerAccumulator, fusedConsumers,
                    inlined);
}

void SketchAttr::print(AsmPrinter &printer) const {
  printer << '<' << stringifySketchKind(getKind()) << ", \"" << getStructure()
          << '"';
  if (!getShared().empty()) {
    printer << ", shared = ";
    printIntList(printer, getShared());
  }
  if (getRegisterAccumulator())
    printer << ", register_accumulator";
  if (getFusedConsumers() != 0)
    printer << ", fused_consumers = " << getFusedConsumers();
  if (!getInlined().empty()) {
    printer << ", inlined = ";
    printIntList(printer, getInlined());
  }
  printer << '>';
}

//===----------------------------------------------------------------------===//
// ConfigAttr
//===----------------------------------------------------------------------===//

static bool isValidUnroll(int64_t unroll) {
  return llvm::is_contained({0, 16, 64, 512, 1024}, unroll);
}

ArrayRef<int64_t> ConfigAttr::getLoopTiles(unsigned loop) const {
  return cast<DenseI64ArrayAttr>(getTiles()[loop]).asArrayRef();
}

ConfigAttr ConfigAttr::get(MLIRContext *ctx,
                           ArrayRef<SmallVector<int64_t>> tiles, int64_t unroll,
                           ArrayRef<int64_t> vector, int64_t stages,
                           ArrayRef<int64_t> pad) {
  SmallVector<Attribute> lists;
  for (const SmallVector<int64_t> &loop : tiles)
    lists.push_back(DenseI64ArrayAttr::get(ctx, loop));
  return get(ctx, ArrayAttr::get(ctx, lists), unroll, vector, stages, pad);
}

ConfigAttr ConfigAttr::withStages(int64_t stages) const {
  return get(getContext(), getTiles(), getUnroll(), getVector(), stages,
             getPad());
}

ConfigAttr ConfigAttr::withPad(ArrayRef<int64_t> pad) const {
  // No padding prints as no `pad`: one attribute per schedule.
  if (llvm::all_of(pad, [](int64_t p) { return p == 0; }))
    pad = {};
  return get(getContext(), getTiles(), getUnroll(), getVector(), getStages(),
             pad);
}

LogicalResult ConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayAttr tiles, int64_t unroll,
                                 ArrayRef<int64_t> vector, int64_t stages,
                                 ArrayRef<int64_t> pad) {
  for (auto [loop, attr] : llvm::enumerate(tiles)) {
    auto list = dyn_cast<DenseI64ArrayAttr>(attr);
    if (!list)
      return emitError() << "tiles of loop " << loop
                         << " must be a list of integers";
    if (list.empty())
      return emitError() << "tiles of loop " << loop << " are empty";
    for (int64_t size : list.asArrayRef())
      if (size < 1)
        return emitError() << "tile size " << size << " of loop " << loop
                           << " must be at least 1";
  }
  if (!isValidUnroll(unroll))
    return emitError() << "unroll " << unroll
                       << " is not one of 0, 16, 64, 512, 1024";
  for (int64_t width : vector)
    if (width < 1)
      return emitError() << "vector width " << width << " must be at least 1";
  if (stages < 1 || stages > kMaxPipelineStages)
    return emitError() << "stages " << stages << " is not between 1 and "
                       << kMaxPipelineStages;
  for (int64_t elements : pad)
    if (elements < 0)
      return emitError() << "pad " << elements << " must not be negative";
  return success();
}

// #tessel.config<tiles = [[..], ..] [, unroll = N] [, vector = [..]]
//                [, stages = N] [, pad = [..]]>
Attribute ConfigAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<SmallVector<int64_t>> tiles;
  if (parser.parseLess() || parser.parseKeyword("tiles") ||
      parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parseIntList(parser, tiles.emplace_back());
      }))
    return {};
  int64_t unroll = 0;
  SmallVector<int64_t> vector;
  int64_t stages = 1;
  SmallVector<int64_t> pad;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (key == "unroll") {
      if (parser.parseInteger(unroll))
        return {};
    } else if (key == "vector") {
      if (parseIntList(parser, vector))
        return {};
    } else if (key == "stages") {
      if (parser.parseInteger(stages))
        return {};
    } else if (key == "pad") {
      if (parseIntList(parser, pad))
        return {};
    } else {
      parser.emitError(keyLoc) << "unknown config parameter '" << key
                               << "'; expected unroll, vector, stages or pad";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  SmallVector<Attribute> lists;
  for (const SmallVector<int64_t> &loop : tiles)
    lists.push_back(DenseI64ArrayAttr::get(ctx, loop));
  return getChecked([&] { return parser.emitError(loc); }, ctx,
                    ArrayAttr::get(ctx, lists), unroll, vector, stages, pad);
}

void ConfigAttr::print(AsmPrinter &printer) const {
  printer << "<tiles = [";
  llvm::interleaveComma(llvm::seq<unsigned>(0, getNumLoops()), printer,
                        [&](unsigned loop) {
                          printIntList(printer, getLoopTiles(loop));
                        });
  printer << "], unroll = " << getUnroll();
  if (!getVector().empty()) {
    printer << ", vector = ";
    printIntList(printer, getVector());
  }
  if (getStages() != 1)
    printer << ", stages = " << getStages();
  if (!getPad().empty()) {
    printer << ", pad = ";
    printIntList(printer, getPad());
  }
  printer << '>';
}

void TesselDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tessel/Dialect/Tessel/IR/TesselAttrs.cpp.inc"
      >();
}
