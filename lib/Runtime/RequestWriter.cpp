//===- RequestWriter.cpp - Writing tessel-cuda-runner requests ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The inverse of parseRequest (Request.cpp): every field of the structs is
// written, so that parseRequest(writeRequest(r)) gives r back.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/Request.h"

#include "tessel/Runtime/Json.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

using namespace tessel::runtime;

namespace {

/// A JSON array of already-written values.
class ArrayWriter {
public:
  void addRaw(const std::string &json) {
    if (text.size() > 1)
      text += ',';
    text += json;
  }
  std::string str() const { return text + "]"; }

private:
  std::string text = "[";
};

std::string writeDims(const std::array<uint32_t, 3> &dims) {
  ArrayWriter array;
  for (uint32_t dim : dims)
    array.addRaw(std::to_string(dim));
  return array.str();
}

std::string writeHex(const std::vector<uint8_t> &bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (uint8_t byte : bytes) {
    hex += kDigits[byte >> 4];
    hex += kDigits[byte & 15];
  }
  return hex;
}

std::string writeOptions(const RequestOptions &options) {
  return json::ObjectWriter()
      .addNumber("warmup_ms", options.warmupMs)
      .addNumber("min_time_ms", options.minTimeMs)
      .addInt("min_repeats", options.minRepeats)
      .addInt("max_repeats", options.maxRepeats)
      .addBool("flush_l2", options.flushL2)
      .addBool("verify", options.verify)
      .str();
}

std::string writeBuffer(const BufferSpec &buffer) {
  json::ObjectWriter object;
  object.addInt("bytes", buffer.bytes);
  switch (buffer.init) {
  case BufferInit::File:
    object.addString("init", "file").addString("file", buffer.file);
    break;
  case BufferInit::Poison:
    object.addString("init", "poison");
    break;
  case BufferInit::Zero:
    object.addString("init", "zero");
    break;
  }
  return object.str();
}

std::string writeParam(const LaunchParam &param) {
  json::ObjectWriter object;
  switch (param.kind) {
  case LaunchParam::Kind::Pointer:
    object.addInt("ptr", param.buffer).addInt("offset", param.offset);
    break;
  case LaunchParam::Kind::I64:
    object.addInt("i64", param.value);
    break;
  case LaunchParam::Kind::I32:
    object.addInt("i32", param.value);
    break;
  case LaunchParam::Kind::Bytes:
    object.addString("bytes", writeHex(param.bytes));
    break;
  }
  return object.str();
}

std::string writeStep(const Step &step) {
  if (step.kind == Step::Kind::Copy) {
    const CopyStep &copy = step.copy;
    return json::ObjectWriter()
        .addRaw("copy", json::ObjectWriter()
                            .addInt("src", copy.src)
                            .addInt("src_offset", copy.srcOffset)
                            .addInt("dst", copy.dst)
                            .addInt("dst_offset", copy.dstOffset)
                            .addInt("bytes", copy.bytes)
                            .str())
        .str();
  }
  const LaunchStep &launch = step.launch;
  ArrayWriter params;
  for (const LaunchParam &param : launch.params)
    params.addRaw(writeParam(param));
  return json::ObjectWriter()
      .addRaw("launch", json::ObjectWriter()
                            .addString("module", launch.module)
                            .addString("kernel", launch.kernel)
                            .addRaw("grid", writeDims(launch.grid))
                            .addRaw("block", writeDims(launch.block))
                            .addInt("shared_bytes", launch.sharedBytes)
                            .addRaw("params", params.str())
                            .str())
      .str();
}

std::string writeCheck(const CheckSpec &check) {
  return json::ObjectWriter()
      .addInt("buffer", check.buffer)
      .addInt("offset", check.offset)
      .addString("dtype", stringifyDType(check.dtype))
      .addInt("count", check.count)
      .addString("expected", check.expected)
      .addNumber("rtol", check.rtol)
      .addNumber("atol", check.atol)
      .str();
}

std::string writeCandidate(const Candidate &candidate) {
  json::ObjectWriter modules;
  for (const auto &[name, file] : candidate.modules)
    modules.addString(name, file);
  ArrayWriter buffers, steps, checks;
  for (const BufferSpec &buffer : candidate.buffers)
    buffers.addRaw(writeBuffer(buffer));
  for (const Step &step : candidate.steps)
    steps.addRaw(writeStep(step));
  for (const CheckSpec &check : candidate.checks)
    checks.addRaw(writeCheck(check));
  return json::ObjectWriter()
      .addString("key", candidate.key)
      .addRaw("modules", modules.str())
      .addRaw("buffers", buffers.str())
      .addRaw("steps", steps.str())
      .addRaw("checks", checks.str())
      .addNumber("flops", candidate.flops)
      .str();
}

} // namespace

std::string tessel::runtime::writeRequest(const MeasureRequest &request) {
  ArrayWriter candidates;
  for (const Candidate &candidate : request.candidates)
    candidates.addRaw(writeCandidate(candidate));
  return json::ObjectWriter()
             .addInt("version", request.version)
             .addRaw("options", writeOptions(request.options))
             .addRaw("candidates", candidates.str())
             .str() +
         "\n";
}

bool tessel::runtime::saveRequest(const MeasureRequest &request,
                                  const std::string &path,
                                  std::string &error) {
  std::string text = writeRequest(request);
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}
