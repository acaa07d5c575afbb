//===- CandidateCodec.cpp - Candidates and results as text ----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Measure/CandidateCodec.h"

#include "tessel/Tuning/Measure/LaunchPlan.h"
#include "tessel/Tuning/Measure/Reference.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/Base64.h"

using namespace mlir;
using namespace mlir::tessel;
namespace json = llvm::json;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

template <typename Bytes>
static std::string base64(const Bytes &bytes) {
  return llvm::encodeBase64(bytes);
}

static json::Array integers(ArrayRef<int64_t> values) {
  json::Array array;
  for (int64_t value : values)
    array.push_back(value);
  return array;
}

static json::Object writeResources(const KernelResources &r) {
  return r.toJSON();
}

static std::string writeFacts(const KernelFacts &facts, MLIRContext *context) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << facts.toAttribute(context);
  return text;
}

static json::Object writeTensor(const HostTensor &tensor) {
  return json::Object{{"dtype", tensor.dtype},
                      {"shape", integers(tensor.shape)},
                      {"data", base64(tensor.data)}};
}

static json::Object writeParam(const PlanParam &param) {
  static const char *const kinds[] = {"pointer", "i64", "i32", "bytes"};
  return json::Object{{"kind", kinds[static_cast<int>(param.kind)]},
                      {"buffer", param.buffer},
                      {"offset", param.offset},
                      {"value", param.value},
                      {"bytes", base64(param.bytes)}};
}

static json::Object writePlan(const LaunchPlan &plan, MLIRContext *context) {
  static const char *const bufferKinds[] = {"argument", "temporary",
                                            "constant"};
  json::Array buffers;
  for (const PlanBuffer &buffer : plan.buffers)
    buffers.push_back(
        json::Object{{"kind", bufferKinds[static_cast<int>(buffer.kind)]},
                     {"bytes", buffer.bytes},
                     {"arg", buffer.argIndex},
                     {"data", base64(buffer.data)}});
  json::Object binaries;
  for (const auto &[name, bytes] : plan.binaries)
    binaries[name] = base64(bytes);
  json::Array steps;
  for (const PlanStep &step : plan.steps) {
    if (step.copy) {
      const PlanCopy &c = *step.copy;
      steps.push_back(json::Object{{"copy", json::Object{
                                                {"src", c.src},
                                                {"src_offset", c.srcOffset},
                                                {"dst", c.dst},
                                                {"dst_offset", c.dstOffset},
                                                {"bytes", c.bytes},
                                            }}});
      continue;
    }
    const PlanLaunch &l = *step.launch;
    json::Array params;
    for (const PlanParam &param : l.params)
      params.push_back(writeParam(param));
    json::Object launch{
        {"module", l.module},
        {"kernel", l.kernel},
        {"grid", json::Array{l.grid[0], l.grid[1], l.grid[2]}},
        {"block", json::Array{l.block[0], l.block[1], l.block[2]}},
        {"shared_bytes", l.sharedBytes},
        {"params", std::move(params)},
        {"resources", writeResources(l.resources)},
    };
    if (l.facts)
      launch["facts"] = writeFacts(*l.facts, context);
    steps.push_back(json::Object{{"launch", std::move(launch)}});
  }
  json::Array outputs;
  for (const PlanOutput &output : plan.outputs)
    outputs.push_back(json::Object{{"buffer", output.buffer},
                                   {"offset", output.offset},
                                   {"dtype", output.dtype},
                                   {"shape", integers(output.shape)}});
  return json::Object{{"buffers", std::move(buffers)},
                      {"binaries", std::move(binaries)},
                      {"steps", std::move(steps)},
                      {"outputs", std::move(outputs)}};
}

std::string mlir::tessel::encodeCandidate(const MeasureCandidate &candidate,
                                          MLIRContext *context,
                                          const CandidateEncoding &encoding) {
  json::Object object{
      {"key", candidate.key},
      {"grid_blocks", candidate.gridBlocks},
      {"block_threads", candidate.blockThreads},
      {"resources", writeResources(candidate.resources)},
      {"facts", writeFacts(candidate.facts, context)},
      {"plan_flops", candidate.planFlops},
  };
  if (candidate.plan)
    object["plan"] = writePlan(*candidate.plan, context);
  if (candidate.reference && encoding.referenceAt) {
    object["reference_at"] = *encoding.referenceAt;
  } else if (candidate.reference) {
    json::Array inputs, outputs;
    for (const HostTensor &tensor : candidate.reference->inputs)
      inputs.push_back(writeTensor(tensor));
    for (const HostTensor &tensor : candidate.reference->outputs)
      outputs.push_back(writeTensor(tensor));
    object["reference"] = json::Object{{"inputs", std::move(inputs)},
                                       {"outputs", std::move(outputs)}};
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << json::Value(std::move(object));
  return text;
}

std::string mlir::tessel::encodeResult(const MeasureResult &result) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << json::Value(result.toJSON());
  return text;
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {
/// Reads fields of JSON objects, remembering the first problem as
/// "<path>: <what>".
class Reader {
public:
  bool failed() const { return !problem.empty(); }
  Error takeError() const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), problem);
  }
  void fail(const llvm::Twine &where, const llvm::Twine &what) {
    if (problem.empty())
      problem = (where + ": " + what).str();
  }

  const json::Value *field(const json::Object &object, StringRef where,
                           StringRef key) {
    const json::Value *value = object.get(key);
    if (!value)
      fail(where, "missing field '" + key + "'");
    return value;
  }
  int64_t integer(const json::Object &object, StringRef where, StringRef key) {
    const json::Value *value = field(object, where, key);
    if (!value)
      return 0;
    if (std::optional<int64_t> number = value->getAsInteger())
      return *number;
    fail(where, "'" + key + "' is not an integer");
    return 0;
  }
  double number(const json::Object &object, StringRef where, StringRef key) {
    const json::Value *value = field(object, where, key);
    if (!value)
      return 0;
    if (std::optional<double> number = value->getAsNumber())
      return *number;
    fail(where, "'" + key + "' is not a number");
    return 0;
  }
  bool boolean(const json::Object &object, StringRef where, StringRef key) {
    const json::Value *value = field(object, where, key);
    if (!value)
      return false;
    if (std::optional<bool> flag = value->getAsBoolean())
      return *flag;
    fail(where, "'" + key + "' is not a boolean");
    return false;
  }
  std::string string(const json::Object &object, StringRef where,
                     StringRef key) {
    const json::Value *value = field(object, where, key);
    if (!value)
      return {};
    if (std::optional<StringRef> text = value->getAsString())
      return text->str();
    fail(where, "'" + key + "' is not a string");
    return {};
  }
  std::vector<char> bytes(const json::Object &object, StringRef where,
                          StringRef key) {
    std::string text = string(object, where, key);
    std::vector<char> decoded;
    if (Error err = llvm::decodeBase64(text, decoded)) {
      fail(where, "'" + key + "': " + llvm::toString(std::move(err)));
      return {};
    }
    return decoded;
  }
  const json::Object *object(const json::Object &parent, StringRef where,
                             StringRef key) {
    const json::Value *value = field(parent, where, key);
    if (!value)
      return nullptr;
    if (const json::Object *object = value->getAsObject())
      return object;
    fail(where, "'" + key + "' is not an object");
    return nullptr;
  }
  const json::Array *array(const json::Object &parent, StringRef where,
                           StringRef key) {
    const json::Value *value = field(parent, where, key);
    if (!value)
      return nullptr;
    if (const json::Array *array = value->getAsArray())
      return array;
    fail(where, "'" + key + "' is not an array");
    return nullptr;
  }
  /// The elements of array `key` as objects, with their paths.
  std::vector<std::pair<const json::Object *, std::string>>
  objects(const json::Object &parent, StringRef where, StringRef key) {
    std::vector<std::pair<const json::Object *, std::string>> result;
    const json::Array *items = array(parent, where, key);
    if (!items)
      return result;
    for (auto [index, item] : llvm::enumerate(*items)) {
      std::string path =
          (where + "." + key + "[" + llvm::Twine(index) + "]").str();
      if (const json::Object *object = item.getAsObject())
        result.emplace_back(object, path);
      else
        fail(path, "not an object");
    }
    return result;
  }
  SmallVector<int64_t> integers(const json::Object &parent, StringRef where,
                                StringRef key) {
    SmallVector<int64_t> result;
    if (const json::Array *items = array(parent, where, key)) {
      for (const json::Value &item : *items) {
        if (std::optional<int64_t> number = item.getAsInteger())
          result.push_back(*number);
        else
          fail(where, "'" + key + "' holds a non-integer");
      }
    }
    return result;
  }

private:
  std::string problem;
};
} // namespace

static KernelResources readResources(Reader &reader, const json::Object &o,
                                     StringRef where) {
  KernelResources r;
  r.name = reader.string(o, where, "kernel");
  r.registers = reader.integer(o, where, "registers");
  r.sharedMemoryBytes = reader.integer(o, where, "shared_memory_bytes");
  r.spillStoreBytes = reader.integer(o, where, "spill_store_bytes");
  r.spillLoadBytes = reader.integer(o, where, "spill_load_bytes");
  r.stackBytes = reader.integer(o, where, "stack_bytes");
  if (o.get("dynamic_shared_memory_bytes"))
    r.dynamicSharedMemoryBytes =
        reader.integer(o, where, "dynamic_shared_memory_bytes");
  if (const json::Object *counts = o.getObject("ptx"))
    for (const auto &[key, value] : *counts) {
      std::optional<int64_t> count = value.getAsInteger();
      if (!count) {
        reader.integer(*counts, (where + ".ptx").str(), key);
        break;
      }
      r.ptx[key.str()] = *count;
    }
  return r;
}

static KernelFacts readFacts(Reader &reader, const json::Object &o,
                             StringRef where, MLIRContext *context) {
  std::string text = reader.string(o, where, "facts");
  if (reader.failed())
    return {};
  auto dict = dyn_cast_or_null<DictionaryAttr>(parseAttribute(text, context));
  std::optional<KernelFacts> facts =
      dict ? KernelFacts::fromAttribute(dict) : std::nullopt;
  if (!facts) {
    reader.fail(where, "'facts' is not a kernel facts dictionary");
    return {};
  }
  return *facts;
}

static HostTensor readTensor(Reader &reader, const json::Object &o,
                             StringRef where) {
  HostTensor tensor;
  tensor.dtype = reader.string(o, where, "dtype");
  tensor.shape = reader.integers(o, where, "shape");
  std::vector<char> data = reader.bytes(o, where, "data");
  tensor.data.assign(data.begin(), data.end());
  return tensor;
}

static std::shared_ptr<const ReferenceData>
readReference(Reader &reader, const json::Object &reference) {
  auto data = std::make_shared<ReferenceData>();
  for (auto [tensor, path] :
       reader.objects(reference, "candidate.reference", "inputs"))
    data->inputs.push_back(readTensor(reader, *tensor, path));
  for (auto [tensor, path] :
       reader.objects(reference, "candidate.reference", "outputs"))
    data->outputs.push_back(readTensor(reader, *tensor, path));
  return data;
}

static std::shared_ptr<LaunchPlan> readPlan(Reader &reader,
                                            const json::Object &o,
                                            StringRef where,
                                            MLIRContext *context) {
  auto plan = std::make_shared<LaunchPlan>();
  for (auto [buffer, path] : reader.objects(o, where, "buffers")) {
    PlanBuffer &b = plan->buffers.emplace_back();
    std::string kind = reader.string(*buffer, path, "kind");
    if (kind == "argument")
      b.kind = PlanBuffer::Kind::Argument;
    else if (kind == "temporary")
      b.kind = PlanBuffer::Kind::Temporary;
    else if (kind == "constant")
      b.kind = PlanBuffer::Kind::Constant;
    else if (!reader.failed())
      reader.fail(path, "unknown buffer kind '" + kind + "'");
    b.bytes = reader.integer(*buffer, path, "bytes");
    b.argIndex = reader.integer(*buffer, path, "arg");
    std::vector<char> data = reader.bytes(*buffer, path, "data");
    b.data.assign(data.begin(), data.end());
  }
  if (const json::Object *binaries = reader.object(o, where, "binaries")) {
    for (const auto &[name, value] : *binaries) {
      std::vector<char> bytes = reader.bytes(*binaries, where, name);
      plan->binaries[name.str()] = std::string(bytes.begin(), bytes.end());
    }
  }
  for (auto [step, path] : reader.objects(o, where, "steps")) {
    PlanStep &s = plan->steps.emplace_back();
    if (const json::Object *copy = step->getObject("copy")) {
      PlanCopy c;
      c.src = reader.integer(*copy, path, "src");
      c.srcOffset = reader.integer(*copy, path, "src_offset");
      c.dst = reader.integer(*copy, path, "dst");
      c.dstOffset = reader.integer(*copy, path, "dst_offset");
      c.bytes = reader.integer(*copy, path, "bytes");
      s.copy = c;
      continue;
    }
    const json::Object *launch = reader.object(*step, path, "launch");
    if (!launch)
      break;
    PlanLaunch l;
    l.module = reader.string(*launch, path, "module");
    l.kernel = reader.string(*launch, path, "kernel");
    SmallVector<int64_t> grid = reader.integers(*launch, path, "grid");
    SmallVector<int64_t> block = reader.integers(*launch, path, "block");
    if (grid.size() != 3 || block.size() != 3) {
      reader.fail(path, "grid and block need 3 integers each");
      break;
    }
    for (int i = 0; i < 3; ++i) {
      l.grid[i] = static_cast<uint32_t>(grid[i]);
      l.block[i] = static_cast<uint32_t>(block[i]);
    }
    l.sharedBytes =
        static_cast<uint32_t>(reader.integer(*launch, path, "shared_bytes"));
    for (auto [param, paramPath] : reader.objects(*launch, path, "params")) {
      PlanParam &p = l.params.emplace_back();
      std::string kind = reader.string(*param, paramPath, "kind");
      if (kind == "pointer")
        p.kind = PlanParam::Kind::Pointer;
      else if (kind == "i64")
        p.kind = PlanParam::Kind::I64;
      else if (kind == "i32")
        p.kind = PlanParam::Kind::I32;
      else if (kind == "bytes")
        p.kind = PlanParam::Kind::Bytes;
      else if (!reader.failed())
        reader.fail(paramPath, "unknown parameter kind '" + kind + "'");
      p.buffer = reader.integer(*param, paramPath, "buffer");
      p.offset = reader.integer(*param, paramPath, "offset");
      p.value = reader.integer(*param, paramPath, "value");
      std::vector<char> bytes = reader.bytes(*param, paramPath, "bytes");
      p.bytes.assign(bytes.begin(), bytes.end());
    }
    if (const json::Object *resources =
            reader.object(*launch, path, "resources"))
      l.resources = readResources(reader, *resources, path);
    if (launch->get("facts"))
      l.facts = readFacts(reader, *launch, path, context);
    s.launch = std::move(l);
  }
  for (auto [output, path] : reader.objects(o, where, "outputs")) {
    PlanOutput &out = plan->outputs.emplace_back();
    out.buffer = reader.integer(*output, path, "buffer");
    out.offset = reader.integer(*output, path, "offset");
    out.dtype = reader.string(*output, path, "dtype");
    out.shape = reader.integers(*output, path, "shape");
  }
  return plan;
}

Expected<MeasureCandidate>
mlir::tessel::decodeCandidate(StringRef text, MLIRContext *context,
                              ReferenceResolver resolveReference) {
  Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "candidate: " +
                                       llvm::toString(parsed.takeError()));
  const json::Object *o = parsed->getAsObject();
  if (!o)
    return llvm::createStringError("candidate: not a JSON object");
  Reader reader;
  MeasureCandidate candidate;
  candidate.key = reader.string(*o, "candidate", "key");
  candidate.gridBlocks = reader.integer(*o, "candidate", "grid_blocks");
  candidate.blockThreads = reader.integer(*o, "candidate", "block_threads");
  if (const json::Object *resources =
          reader.object(*o, "candidate", "resources"))
    candidate.resources = readResources(reader, *resources, "candidate");
  candidate.facts = readFacts(reader, *o, "candidate", context);
  candidate.planFlops = reader.number(*o, "candidate", "plan_flops");
  if (const json::Object *plan = o->getObject("plan"))
    candidate.plan = readPlan(reader, *plan, "candidate.plan", context);
  if (const json::Object *reference = o->getObject("reference"))
    candidate.reference = readReference(reader, *reference);
  if (o->get("reference_at") && !reader.failed()) {
    int64_t position = reader.integer(*o, "candidate", "reference_at");
    if (!reader.failed()) {
      if (!resolveReference)
        return llvm::createStringError(
            "candidate: 'reference_at' points to the reference of another "
            "candidate, and there is nothing to look it up in");
      Expected<std::shared_ptr<const ReferenceData>> resolved =
          resolveReference(position);
      if (!resolved)
        return llvm::createStringError(
            llvm::formatv("candidate: the reference at position {0}: {1}",
                          position, llvm::toString(resolved.takeError()))
                .str());
      if (!*resolved)
        return llvm::createStringError(
            llvm::formatv("candidate: the candidate at position {0} holds "
                          "no reference data",
                          position)
                .str());
      candidate.reference = std::move(*resolved);
    }
  }
  if (reader.failed())
    return reader.takeError();
  return candidate;
}

Expected<std::shared_ptr<const ReferenceData>>
mlir::tessel::decodeCandidateReference(StringRef text) {
  Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return llvm::createStringError("candidate: " +
                                   llvm::toString(parsed.takeError()));
  const json::Object *o = parsed->getAsObject();
  if (!o)
    return llvm::createStringError("candidate: not a JSON object");
  const json::Object *reference = o->getObject("reference");
  if (!reference)
    return nullptr;
  Reader reader;
  std::shared_ptr<const ReferenceData> data = readReference(reader, *reference);
  if (reader.failed())
    return reader.takeError();
  return data;
}

Expected<MeasureResult> mlir::tessel::decodeResult(StringRef text) {
  Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "result: " +
                                       llvm::toString(parsed.takeError()));
  const json::Object *o = parsed->getAsObject();
  if (!o)
    return llvm::createStringError("result: not a JSON object");
  Reader reader;
  MeasureResult result;
  result.key = reader.string(*o, "result", "key");
  std::string status = reader.string(*o, "result", "status");
  if (std::optional<MeasureStatus> parsedStatus =
          symbolizeMeasureStatus(status))
    result.status = *parsedStatus;
  else if (!reader.failed())
    reader.fail("result", "unknown status '" + status + "'");
  result.simulated = reader.boolean(*o, "result", "simulated");
  result.device = reader.string(*o, "result", "device");
  if (const json::Object *resources = reader.object(*o, "result", "resources"))
    result.resources = readResources(reader, *resources, "result");
  if (result.isOk()) {
    result.timing.medianUs = reader.number(*o, "result", "median_us");
    result.timing.minUs = reader.number(*o, "result", "min_us");
    result.timing.maxUs = reader.number(*o, "result", "max_us");
    result.timing.stddevUs = reader.number(*o, "result", "stddev_us");
    result.timing.repeats =
        static_cast<int>(reader.integer(*o, "result", "repeats"));
  }
  if (std::optional<StringRef> message = o->getString("message"))
    result.message = message->str();
  if (reader.failed())
    return reader.takeError();
  return result;
}
