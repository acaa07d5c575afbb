//===- Request.cpp - Measurement requests of tessel-cuda-runner -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/Request.h"

#include "tessel/Runtime/Json.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <tuple>

#include <sys/stat.h>
#include <unistd.h>

using namespace tessel::runtime;

size_t LaunchParam::getSize() const {
  switch (kind) {
  case Kind::Pointer:
  case Kind::I64:
    return 8;
  case Kind::I32:
    return 4;
  case Kind::Bytes:
    return bytes.size();
  }
  return 0;
}

const std::string *Candidate::findModule(std::string_view name) const {
  for (const auto &module : modules)
    if (module.first == name)
      return &module.second;
  return nullptr;
}

std::pair<double, double> tessel::runtime::getDefaultTolerances(DType type) {
  switch (type) {
  case DType::F64:
    return {1e-10, 1e-12};
  case DType::F32:
    return {1e-4, 1e-5};
  case DType::F16:
    return {1e-2, 1e-3};
  case DType::BF16:
    return {2e-2, 1e-2};
  case DType::I8:
  case DType::I1:
  case DType::I32:
  case DType::I64:
    return {0, 0};
  }
  return {0, 0};
}

bool tessel::runtime::readFile(const std::string &path, std::string &contents,
                               std::string &error) {
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  contents.clear();
  char buffer[1 << 16];
  size_t read;
  while ((read = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    contents.append(buffer, read);
  bool failed = std::ferror(file);
  int savedErrno = errno;
  std::fclose(file);
  if (failed) {
    error = "cannot read '" + path + "': " + std::strerror(savedErrno);
    return false;
  }
  return true;
}

namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kUInt32Max = std::numeric_limits<uint32_t>::max();
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();

/// `path.key` ("key" at the root).
std::string join(const std::string &path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

/// `path[index]`.
std::string indexed(const std::string &path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

/// Reads the fields of one JSON object, reporting the first error with the
/// path of the offending field.
class ObjectReader {
public:
  /// Checks that `value` is an object whose keys are all in `allowed`.
  ObjectReader(const json::Value &value, std::string path,
               std::initializer_list<std::string_view> allowed,
               std::string &error)
      : value(value), path(std::move(path)), error(error) {
    if (!value.isObject()) {
      valid = fail(this->path, std::string("expected an object, got ") +
                                   json::Value::describe(value.getKind()));
      return;
    }
    for (const auto &member : value.getObject()) {
      bool known = false;
      for (std::string_view key : allowed)
        known |= member.first == key;
      if (!known) {
        valid = fail(this->path, "unknown field '" + member.first + "'");
        return;
      }
    }
  }

  bool isValid() const { return valid; }
  const std::string &getPath() const { return path; }
  bool has(std::string_view key) const { return value.get(key) != nullptr; }

  /// Sets the error message (the first one wins) and returns false.
  bool fail(const std::string &where, const std::string &what) {
    if (error.empty())
      error = (where.empty() ? std::string("request") : where) + ": " + what;
    return false;
  }

  /// The member `key`; null (and an error when `required`) when absent.
  const json::Value *get(std::string_view key, bool required) {
    const json::Value *member = value.get(key);
    if (!member && required)
      fail(path, "missing field '" + std::string(key) + "'");
    return member;
  }

  bool getInt(std::string_view key, int64_t &out, bool required, int64_t min,
              int64_t max) {
    const json::Value *member = get(key, required);
    if (!member)
      return !required;
    return checkInt(*member, join(path, key), out, min, max);
  }

  bool checkInt(const json::Value &member, const std::string &where,
                int64_t &out, int64_t min, int64_t max) {
    if (!member.isInteger())
      return fail(where, "expected an integer, got " + describeValue(member));
    int64_t parsed = member.getInteger();
    if (parsed < min || parsed > max)
      return fail(where, "expected an integer in [" + std::to_string(min) +
                             ", " + std::to_string(max) + "], got " +
                             std::to_string(parsed));
    out = parsed;
    return true;
  }

  bool getNumber(std::string_view key, double &out, bool required, double min) {
    const json::Value *member = get(key, required);
    if (!member)
      return !required;
    if (!member->isNumber())
      return fail(join(path, key),
                  "expected a number, got " + describeValue(*member));
    if (!(member->getNumber() >= min))
      return fail(join(path, key),
                  "expected a number >= " + json::formatNumber(min) + ", got " +
                      json::formatNumber(member->getNumber()));
    out = member->getNumber();
    return true;
  }

  bool getBool(std::string_view key, bool &out) {
    const json::Value *member = get(key, /*required=*/false);
    if (!member)
      return true;
    if (!member->isBool())
      return fail(join(path, key),
                  "expected a boolean, got " + describeValue(*member));
    out = member->getBool();
    return true;
  }

  bool getString(std::string_view key, std::string &out, bool required) {
    const json::Value *member = get(key, required);
    if (!member)
      return !required;
    if (!member->isString())
      return fail(join(path, key),
                  "expected a string, got " + describeValue(*member));
    out = member->getString();
    return true;
  }

  /// The array `key`; null (and an error) when absent and required or when
  /// not an array.
  const json::Value *getArray(std::string_view key, bool required) {
    const json::Value *member = get(key, required);
    if (member && !member->isArray()) {
      fail(join(path, key), "expected an array, got " + describeValue(*member));
      return nullptr;
    }
    return member;
  }

  /// "a string" / "a number (1.5)" / ...: what a value is, for messages.
  static std::string describeValue(const json::Value &member) {
    std::string kind = json::Value::describe(member.getKind());
    if (member.isNumber())
      return kind + " (" + json::formatNumber(member.getNumber()) + ")";
    if (member.isString())
      return kind + " (" + json::quote(member.getString()) + ")";
    return kind;
  }

private:
  const json::Value &value;
  std::string path;
  std::string &error;
  bool valid = true;
};

/// Parses a request; one instance per parse.
class RequestParser {
public:
  RequestParser(const std::string &baseDir, bool checkFiles, std::string &error)
      : baseDir(baseDir), checkFiles(checkFiles), error(error) {}

  bool parse(const json::Value &root, MeasureRequest &request) {
    ObjectReader reader(root, "", {"version", "options", "candidates"}, error);
    if (!reader.isValid())
      return false;
    if (!reader.getInt("version", request.version, /*required=*/true, 0,
                       kInt64Max))
      return false;
    if (request.version != kRequestVersion)
      return reader.fail("version", "unsupported request version " +
                                        std::to_string(request.version) +
                                        " (this runtime reads version " +
                                        std::to_string(kRequestVersion) + ")");
    if (const json::Value *options = reader.get("options", false))
      if (!parseOptions(*options, request.options))
        return false;
    const json::Value *candidates = reader.getArray("candidates", true);
    if (!candidates)
      return false;
    for (size_t i = 0; i < candidates->getArray().size(); ++i) {
      request.candidates.emplace_back();
      if (!parseCandidate(candidates->getArray()[i], indexed("candidates", i),
                          request.candidates.back()))
        return false;
    }
    return true;
  }

private:
  bool parseOptions(const json::Value &value, RequestOptions &options) {
    ObjectReader reader(value, "options",
                        {"warmup_ms", "min_time_ms", "min_repeats",
                         "max_repeats", "flush_l2", "verify"},
                        error);
    if (!reader.isValid() ||
        !reader.getNumber("warmup_ms", options.warmupMs, false, 0) ||
        !reader.getNumber("min_time_ms", options.minTimeMs, false, 0) ||
        !reader.getInt("min_repeats", options.minRepeats, false, 1,
                       kInt32Max) ||
        !reader.getInt("max_repeats", options.maxRepeats, false, 1,
                       kInt32Max) ||
        !reader.getBool("flush_l2", options.flushL2) ||
        !reader.getBool("verify", options.verify))
      return false;
    if (options.maxRepeats < options.minRepeats)
      return reader.fail("options.max_repeats",
                         std::to_string(options.maxRepeats) +
                             " is less than min_repeats " +
                             std::to_string(options.minRepeats));
    return true;
  }

  std::string resolve(const std::string &file) const {
    if (file.empty() || file[0] == '/' || baseDir.empty())
      return file;
    return baseDir + "/" + file;
  }

  /// Checks that `file` is a readable regular file; sets `size`.
  bool checkFile(ObjectReader &reader, const std::string &where,
                 const std::string &file, int64_t &size) {
    struct stat info;
    if (::stat(file.c_str(), &info) != 0)
      return reader.fail(where,
                         "cannot read '" + file + "': " + std::strerror(errno));
    if (!S_ISREG(info.st_mode))
      return reader.fail(where,
                         "cannot read '" + file + "': not a regular file");
    if (::access(file.c_str(), R_OK) != 0)
      return reader.fail(where,
                         "cannot read '" + file + "': " + std::strerror(errno));
    size = static_cast<int64_t>(info.st_size);
    return true;
  }

  bool parseCandidate(const json::Value &value, const std::string &path,
                      Candidate &candidate) {
    ObjectReader reader(
        value, path, {"key", "modules", "buffers", "steps", "checks", "flops"},
        error);
    if (!reader.isValid() || !reader.getString("key", candidate.key, true))
      return false;

    // Modules.
    const json::Value *modules = reader.get("modules", true);
    if (!modules)
      return false;
    if (!modules->isObject())
      return reader.fail(join(path, "modules"),
                         "expected an object, got " +
                             ObjectReader::describeValue(*modules));
    for (const auto &module : modules->getObject()) {
      std::string where = join(join(path, "modules"), module.first);
      if (!module.second.isString())
        return reader.fail(where,
                           "expected a file name, got " +
                               ObjectReader::describeValue(module.second));
      std::string file = resolve(module.second.getString());
      int64_t size;
      if (checkFiles && !checkFile(reader, where, file, size))
        return false;
      candidate.modules.emplace_back(module.first, file);
    }

    // Buffers.
    const json::Value *buffers = reader.getArray("buffers", false);
    if (!buffers && reader.has("buffers"))
      return false;
    if (buffers)
      for (size_t i = 0; i < buffers->getArray().size(); ++i) {
        candidate.buffers.emplace_back();
        if (!parseBuffer(buffers->getArray()[i],
                         indexed(join(path, "buffers"), i),
                         candidate.buffers.back()))
          return false;
      }

    // Steps.
    const json::Value *steps = reader.getArray("steps", true);
    if (!steps)
      return false;
    if (steps->getArray().empty())
      return reader.fail(join(path, "steps"), "expected at least one step");
    for (size_t i = 0; i < steps->getArray().size(); ++i) {
      candidate.steps.emplace_back();
      if (!parseStep(steps->getArray()[i], indexed(join(path, "steps"), i),
                     candidate, candidate.steps.back()))
        return false;
    }

    // Checks.
    const json::Value *checks = reader.getArray("checks", false);
    if (!checks && reader.has("checks"))
      return false;
    if (checks)
      for (size_t i = 0; i < checks->getArray().size(); ++i) {
        candidate.checks.emplace_back();
        if (!parseCheck(checks->getArray()[i], indexed(join(path, "checks"), i),
                        candidate, candidate.checks.back()))
          return false;
      }

    return reader.getNumber("flops", candidate.flops, false, 0);
  }

  bool parseBuffer(const json::Value &value, const std::string &path,
                   BufferSpec &buffer) {
    ObjectReader reader(value, path, {"bytes", "init", "file"}, error);
    std::string init;
    // Allocations above 2^50 bytes (1 PiB) are certainly typos.
    if (!reader.isValid() ||
        !reader.getInt("bytes", buffer.bytes, true, 0, int64_t(1) << 50) ||
        !reader.getString("init", init, true))
      return false;
    if (init == "file")
      buffer.init = BufferInit::File;
    else if (init == "poison")
      buffer.init = BufferInit::Poison;
    else if (init == "zero")
      buffer.init = BufferInit::Zero;
    else
      return reader.fail(join(path, "init"),
                         "expected \"file\", \"poison\" or \"zero\", got " +
                             json::quote(init));
    if (buffer.init != BufferInit::File) {
      if (reader.has("file"))
        return reader.fail(path, "field 'file' needs init \"file\"");
      return true;
    }
    if (!reader.getString("file", buffer.file, true))
      return false;
    buffer.file = resolve(buffer.file);
    int64_t size;
    if (!checkFiles)
      return true;
    if (!checkFile(reader, join(path, "file"), buffer.file, size))
      return false;
    if (size != buffer.bytes)
      return reader.fail(join(path, "file"), "'" + buffer.file + "' has " +
                                                 std::to_string(size) +
                                                 " bytes, but the buffer has " +
                                                 std::to_string(buffer.bytes));
    return true;
  }

  /// Reads buffer index `key` of a candidate with `candidate.buffers`.
  bool getBufferIndex(ObjectReader &reader, std::string_view key,
                      const Candidate &candidate, int64_t &index) {
    if (!reader.getInt(key, index, true, 0, kInt64Max))
      return false;
    if (index >= static_cast<int64_t>(candidate.buffers.size()))
      return reader.fail(join(reader.getPath(), key),
                         "buffer " + std::to_string(index) +
                             " does not exist (the candidate has " +
                             std::to_string(candidate.buffers.size()) +
                             " buffers)");
    return true;
  }

  /// Checks that [offset, offset + bytes) lies inside buffer `index`.
  bool checkRange(ObjectReader &reader, const std::string &where,
                  const Candidate &candidate, int64_t index, int64_t offset,
                  int64_t bytes, const std::string &what) {
    int64_t size = candidate.buffers[index].bytes;
    if (offset <= size && bytes <= size - offset)
      return true;
    return reader.fail(where, what + " [" + std::to_string(offset) + ", " +
                                  std::to_string(offset + bytes) +
                                  ") lie outside buffer " +
                                  std::to_string(index) + " (" +
                                  std::to_string(size) + " bytes)");
  }

  bool parseDims(ObjectReader &reader, std::string_view key,
                 std::array<uint32_t, 3> &dims) {
    const json::Value *value = reader.get(key, true);
    if (!value)
      return false;
    std::string where = join(reader.getPath(), key);
    if (!value->isArray() || value->getArray().size() != 3)
      return reader.fail(where, "expected an array of 3 positive integers");
    for (size_t i = 0; i < 3; ++i) {
      int64_t dim;
      if (!reader.checkInt(value->getArray()[i], indexed(where, i), dim, 1,
                           kUInt32Max))
        return false;
      dims[i] = static_cast<uint32_t>(dim);
    }
    return true;
  }

  static bool parseHex(const std::string &text, std::vector<uint8_t> &bytes) {
    if (text.empty() || text.size() % 2)
      return false;
    auto digit = [](char c) -> int {
      if (c >= '0' && c <= '9')
        return c - '0';
      if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
      if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
      return -1;
    };
    for (size_t i = 0; i < text.size(); i += 2) {
      int high = digit(text[i]), low = digit(text[i + 1]);
      if (high < 0 || low < 0)
        return false;
      bytes.push_back(static_cast<uint8_t>(high * 16 + low));
    }
    return true;
  }

  bool parseParam(const json::Value &value, const std::string &path,
                  const Candidate &candidate, LaunchParam &param) {
    ObjectReader reader(value, path, {"ptr", "offset", "i64", "i32", "bytes"},
                        error);
    if (!reader.isValid())
      return false;
    int kinds = reader.has("ptr") + reader.has("i64") + reader.has("i32") +
                reader.has("bytes");
    if (kinds != 1)
      return reader.fail(
          path, "a param needs exactly one of 'ptr', 'i64', 'i32', 'bytes'");
    if (reader.has("offset") && !reader.has("ptr"))
      return reader.fail(path, "field 'offset' needs 'ptr'");
    if (reader.has("ptr")) {
      param.kind = LaunchParam::Kind::Pointer;
      if (!getBufferIndex(reader, "ptr", candidate, param.buffer) ||
          !reader.getInt("offset", param.offset, false, 0, kInt64Max))
        return false;
      int64_t size = candidate.buffers[param.buffer].bytes;
      if (param.offset > size)
        return reader.fail(join(path, "offset"),
                           std::to_string(param.offset) +
                               " is past the end of buffer " +
                               std::to_string(param.buffer) + " (" +
                               std::to_string(size) + " bytes)");
      return true;
    }
    if (reader.has("i64")) {
      param.kind = LaunchParam::Kind::I64;
      return reader.getInt("i64", param.value, true,
                           std::numeric_limits<int64_t>::min(), kInt64Max);
    }
    if (reader.has("i32")) {
      // Unsigned 32-bit values are accepted too.
      param.kind = LaunchParam::Kind::I32;
      return reader.getInt("i32", param.value, true, kInt32Min, kUInt32Max);
    }
    param.kind = LaunchParam::Kind::Bytes;
    std::string hex;
    if (!reader.getString("bytes", hex, true))
      return false;
    if (!parseHex(hex, param.bytes))
      return reader.fail(join(path, "bytes"),
                         "expected a non-empty even number of hex digits, "
                         "got " +
                             json::quote(hex));
    return true;
  }

  bool parseStep(const json::Value &value, const std::string &path,
                 const Candidate &candidate, Step &step) {
    ObjectReader reader(value, path, {"launch", "copy"}, error);
    if (!reader.isValid())
      return false;
    if (reader.has("launch") == reader.has("copy"))
      return reader.fail(path, "a step needs exactly one of 'launch', 'copy'");
    if (reader.has("launch")) {
      step.kind = Step::Kind::Launch;
      return parseLaunch(*reader.get("launch", true), join(path, "launch"),
                         candidate, step.launch);
    }
    step.kind = Step::Kind::Copy;
    return parseCopy(*reader.get("copy", true), join(path, "copy"), candidate,
                     step.copy);
  }

  bool parseLaunch(const json::Value &value, const std::string &path,
                   const Candidate &candidate, LaunchStep &launch) {
    ObjectReader reader(
        value, path,
        {"module", "kernel", "grid", "block", "shared_bytes", "params"}, error);
    int64_t sharedBytes = 0;
    if (!reader.isValid() || !reader.getString("module", launch.module, true))
      return false;
    if (!candidate.findModule(launch.module))
      return reader.fail(join(path, "module"),
                         "no module " + json::quote(launch.module) +
                             " in the candidate's modules");
    if (!reader.getString("kernel", launch.kernel, true) ||
        !parseDims(reader, "grid", launch.grid) ||
        !parseDims(reader, "block", launch.block) ||
        !reader.getInt("shared_bytes", sharedBytes, false, 0, kUInt32Max))
      return false;
    launch.sharedBytes = static_cast<uint32_t>(sharedBytes);
    const json::Value *params = reader.getArray("params", true);
    if (!params)
      return false;
    for (size_t i = 0; i < params->getArray().size(); ++i) {
      launch.params.emplace_back();
      if (!parseParam(params->getArray()[i], indexed(join(path, "params"), i),
                      candidate, launch.params.back()))
        return false;
    }
    return true;
  }

  bool parseCopy(const json::Value &value, const std::string &path,
                 const Candidate &candidate, CopyStep &copy) {
    ObjectReader reader(value, path,
                        {"src", "src_offset", "dst", "dst_offset", "bytes"},
                        error);
    return reader.isValid() &&
           getBufferIndex(reader, "src", candidate, copy.src) &&
           reader.getInt("src_offset", copy.srcOffset, false, 0, kInt64Max) &&
           getBufferIndex(reader, "dst", candidate, copy.dst) &&
           reader.getInt("dst_offset", copy.dstOffset, false, 0, kInt64Max) &&
           reader.getInt("bytes", copy.bytes, true, 1, kInt64Max) &&
           checkRange(reader, path, candidate, copy.src, copy.srcOffset,
                      copy.bytes, "source bytes") &&
           checkRange(reader, path, candidate, copy.dst, copy.dstOffset,
                      copy.bytes, "destination bytes");
  }

  bool parseCheck(const json::Value &value, const std::string &path,
                  const Candidate &candidate, CheckSpec &check) {
    ObjectReader reader(
        value, path,
        {"buffer", "offset", "dtype", "count", "expected", "rtol", "atol"},
        error);
    std::string dtype;
    if (!reader.isValid() ||
        !getBufferIndex(reader, "buffer", candidate, check.buffer) ||
        !reader.getInt("offset", check.offset, false, 0, kInt64Max) ||
        !reader.getString("dtype", dtype, true))
      return false;
    std::optional<DType> type = symbolizeDType(dtype);
    if (!type)
      return reader.fail(join(path, "dtype"),
                         "unknown dtype " + json::quote(dtype) +
                             "; expected f32, f64, f16, bf16, i8, i32 or i64");
    check.dtype = *type;
    size_t elementBytes = getDTypeSize(check.dtype);
    if (!reader.getInt("count", check.count, true, 0,
                       kInt64Max / static_cast<int64_t>(elementBytes)))
      return false;
    int64_t bytes = check.count * static_cast<int64_t>(elementBytes);
    if (!checkRange(reader, path, candidate, check.buffer, check.offset, bytes,
                    std::to_string(check.count) + " " + dtype + " elements at"))
      return false;
    std::tie(check.rtol, check.atol) = getDefaultTolerances(check.dtype);
    if (!reader.getString("expected", check.expected, true) ||
        !reader.getNumber("rtol", check.rtol, false, 0) ||
        !reader.getNumber("atol", check.atol, false, 0))
      return false;
    check.expected = resolve(check.expected);
    int64_t size;
    if (!checkFiles)
      return true;
    if (!checkFile(reader, join(path, "expected"), check.expected, size))
      return false;
    if (size != bytes)
      return reader.fail(join(path, "expected"),
                         "'" + check.expected + "' has " +
                             std::to_string(size) + " bytes, but " +
                             std::to_string(check.count) + " " + dtype +
                             " elements are " + std::to_string(bytes));
    return true;
  }

  const std::string &baseDir;
  bool checkFiles;
  std::string &error;
};

} // namespace

bool tessel::runtime::parseRequest(std::string_view text,
                                   const std::string &baseDir,
                                   MeasureRequest &request, std::string &error,
                                   bool checkFiles) {
  request = MeasureRequest();
  error.clear();
  json::Value root;
  if (!json::parse(text, root, error))
    return false;
  return RequestParser(baseDir, checkFiles, error).parse(root, request);
}

bool tessel::runtime::loadRequest(const std::string &path,
                                  MeasureRequest &request, std::string &error) {
  std::string text;
  if (!readFile(path, text, error))
    return false;
  size_t slash = path.rfind('/');
  std::string baseDir =
      slash == std::string::npos ? "." : path.substr(0, slash);
  if (baseDir.empty())
    baseDir = "/";
  if (parseRequest(text, baseDir, request, error))
    return true;
  error = path + ": " + error;
  return false;
}
