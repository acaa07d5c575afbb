//===- CandidateRunner.cpp - Checking and timing one candidate ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "CandidateRunner.h"

#include "tessel/Runtime/Check.h"
#include "tessel/Runtime/Json.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

using namespace tessel::runtime;

std::string CandidateResult::toJSON(int64_t index, const std::string &key,
                                    double flops) const {
  json::ObjectWriter writer;
  writer.addString("event", "result")
      .addInt("index", index)
      .addString("key", key)
      .addString("status", status)
      .addString("message", message);
  if (status == "ok") {
    writer.addRaw("timing", timing.toJSON());
    if (flops > 0 && timing.medianUs > 0)
      writer.addNumber("gflops", flops / timing.medianUs / 1e3);
  }
  if (compared)
    writer.addNumber("max_abs_error", maxAbsError)
        .addNumber("max_rel_error", maxRelError);
  return writer.str();
}

namespace {

/// A loaded module, unloaded on destruction.
struct LoadedModule {
  const CudaDriver *driver = nullptr;
  std::string name;
  CUmodule module = nullptr;

  ~LoadedModule() {
    if (module)
      (*driver)->cuModuleUnload(module);
  }
};

/// A launch with its function resolved and its parameters laid out.
struct PreparedLaunch {
  const LaunchStep *step = nullptr;
  CUfunction function = nullptr;
  /// One value per parameter; `pointers` points into them.
  std::vector<std::vector<uint8_t>> values;
  std::vector<void *> pointers;
};

/// The state of one candidate's run.
class CandidateRun {
public:
  CandidateRun(const CudaDriver &driver, const DeviceInfo &device,
               CUstream stream, const Candidate &candidate)
      : driver(driver), device(device), stream(stream), candidate(candidate) {}

  Status loadModules();
  Status allocateBuffers();
  Status prepareLaunches();
  /// Enqueues the steps once.
  Status enqueueSteps();
  Status synchronize(std::string_view what) {
    return driver.check(driver->cuStreamSynchronize(stream), what);
  }
  /// Compares the outputs; fills the error fields of `result` and returns
  /// false on a mismatch.
  Status compareOutputs(CandidateResult &result);

  /// After a sticky error nothing may be freed or unloaded.
  void abandon() {
    for (DeviceBuffer &buffer : buffers)
      buffer.release();
    for (auto &module : modules)
      module->module = nullptr;
  }

private:
  const CudaDriver &driver;
  const DeviceInfo &device;
  CUstream stream;
  const Candidate &candidate;
  std::vector<std::unique_ptr<LoadedModule>> modules;
  std::vector<DeviceBuffer> buffers;
  std::vector<PreparedLaunch> launches;
};

} // namespace

Status CandidateRun::loadModules() {
  for (const auto &[name, file] : candidate.modules) {
    std::string image, error;
    if (!readFile(file, image, error))
      return Status::failure(ErrorClass::LaunchError,
                             "module '" + name + "': " + error);
    // PTX must be NUL-terminated; cubins and fatbins ignore the extra byte.
    image.push_back('\0');
    char log[4096] = {0};
    CUjit_option keys[] = {CU_JIT_ERROR_LOG_BUFFER,
                           CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, reinterpret_cast<void *>(sizeof(log) - 1)};
    auto module = std::make_unique<LoadedModule>();
    module->driver = &driver;
    module->name = name;
    CUresult result = driver->cuModuleLoadDataEx(&module->module, image.data(),
                                                 2, keys, values);
    if (result != CUDA_SUCCESS) {
      module->module = nullptr;
      std::string message = "loading module '" + name + "' from '" + file +
                            "': " + driver.describe(result);
      std::string firstLine(log, strnlen(log, sizeof(log)));
      firstLine = firstLine.substr(0, firstLine.find('\n'));
      if (!firstLine.empty())
        message += ": " + firstLine;
      ErrorClass errorClass = classifyCudaError(result);
      // A module that does not load is the candidate's fault, unless the
      // context died.
      return Status::failure(errorClass == ErrorClass::Sticky
                                 ? ErrorClass::Sticky
                                 : ErrorClass::LaunchError,
                             message, result);
    }
    modules.push_back(std::move(module));
  }
  return Status::success();
}

Status CandidateRun::allocateBuffers() {
  buffers.reserve(candidate.buffers.size());
  for (size_t i = 0; i < candidate.buffers.size(); ++i) {
    const BufferSpec &spec = candidate.buffers[i];
    buffers.emplace_back(driver);
    DeviceBuffer &buffer = buffers.back();
    std::string name = "buffer " + std::to_string(i);
    if (spec.bytes == 0)
      continue; // An empty buffer: its pointers are null.
    Status status = buffer.allocate(static_cast<size_t>(spec.bytes));
    if (!status.ok()) {
      status.message = name + ": " + status.message;
      return status;
    }
    if (spec.init == BufferInit::File) {
      std::string contents, error;
      if (!readFile(spec.file, contents, error))
        return Status::failure(ErrorClass::LaunchError, name + ": " + error);
      if (static_cast<int64_t>(contents.size()) != spec.bytes)
        return Status::failure(ErrorClass::LaunchError,
                               name + ": '" + spec.file + "' changed size");
      status = driver.check(
          driver->cuMemcpyHtoD(buffer.get(), contents.data(), contents.size()),
          name + ": cuMemcpyHtoD");
    } else {
      unsigned char fill = spec.init == BufferInit::Poison ? 0xFF : 0;
      status = driver.check(
          driver->cuMemsetD8Async(buffer.get(), fill, buffer.size(), stream),
          name + ": cuMemsetD8Async");
    }
    if (!status.ok())
      return status;
  }
  return synchronize("initializing the buffers");
}

/// The size of parameter `index` of `function` through cuFuncGetParamInfo;
/// false when the kernel has fewer parameters.
static bool getParamSize(const CudaDriver &driver, CUfunction function,
                         size_t index, size_t &size) {
  size_t offset = 0;
  return driver->cuFuncGetParamInfo(function, index, &offset, &size) ==
         CUDA_SUCCESS;
}

/// "i32", "ptr", ... for messages.
static const char *describeParam(const LaunchParam &param) {
  switch (param.kind) {
  case LaunchParam::Kind::Pointer:
    return "ptr";
  case LaunchParam::Kind::I64:
    return "i64";
  case LaunchParam::Kind::I32:
    return "i32";
  case LaunchParam::Kind::Bytes:
    return "bytes";
  }
  return "?";
}

Status CandidateRun::prepareLaunches() {
  for (const Step &step : candidate.steps) {
    if (step.kind != Step::Kind::Launch)
      continue;
    const LaunchStep &launch = step.launch;
    PreparedLaunch prepared;
    prepared.step = &launch;
    std::string kernel = "kernel '" + launch.kernel + "'";
    CUmodule module = nullptr;
    for (const auto &loaded : modules)
      if (loaded->name == launch.module)
        module = loaded->module;
    CUresult result = driver->cuModuleGetFunction(&prepared.function, module,
                                                  launch.kernel.c_str());
    if (result == CUDA_ERROR_NOT_FOUND)
      return Status::failure(
          ErrorClass::LaunchError,
          "no " + kernel + " in module '" + launch.module + "'", result);
    Status status = driver.check(result, "cuModuleGetFunction(" + kernel + ")");
    if (!status.ok())
      return status;

    // Resource limits: report them as out_of_resources with the numbers,
    // rather than as the launch's CUDA_ERROR_INVALID_VALUE.
    auto attribute = [&](CUfunction_attribute which) {
      int value = 0;
      driver->cuFuncGetAttribute(&value, which, prepared.function);
      return value;
    };
    int64_t threads =
        int64_t(launch.block[0]) * launch.block[1] * launch.block[2];
    int maxThreads = attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    if (maxThreads > 0 && threads > maxThreads)
      return Status::failure(
          ErrorClass::OutOfResources,
          kernel + ": a block of " + std::to_string(threads) +
              " threads exceeds the kernel's limit of " +
              std::to_string(maxThreads) + " (" +
              std::to_string(attribute(CU_FUNC_ATTRIBUTE_NUM_REGS)) +
              " registers per thread)");
    int64_t staticShared = attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    int64_t totalShared = staticShared + launch.sharedBytes;
    if (device.sharedBytesPerBlockOptin > 0 &&
        totalShared > device.sharedBytesPerBlockOptin)
      return Status::failure(
          ErrorClass::OutOfResources,
          kernel + " needs " + std::to_string(totalShared) +
              " bytes of shared memory per block (" +
              std::to_string(staticShared) + " static + " +
              std::to_string(launch.sharedBytes) +
              " dynamic), the device allows " +
              std::to_string(device.sharedBytesPerBlockOptin));
    if (totalShared > device.sharedBytesPerBlock) {
      // Above the default 48 KiB a kernel must opt in to its dynamic size.
      status = driver.check(driver->cuFuncSetAttribute(
                                prepared.function,
                                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                static_cast<int>(launch.sharedBytes)),
                            kernel + ": setting its dynamic shared memory to " +
                                std::to_string(launch.sharedBytes) + " bytes");
      if (!status.ok()) {
        if (status.errorClass != ErrorClass::Sticky)
          status.errorClass = ErrorClass::OutOfResources;
        return status;
      }
    }

    // Parameters, checked against the kernel's signature where the driver
    // can tell it (cuFuncGetParamInfo, CUDA 12.4).
    if (driver->cuFuncGetParamInfo) {
      size_t size = 0;
      size_t expected = 0;
      while (getParamSize(driver, prepared.function, expected, size))
        ++expected;
      if (expected != launch.params.size())
        return Status::failure(ErrorClass::LaunchError,
                               kernel + " takes " + std::to_string(expected) +
                                   " parameters, the launch passes " +
                                   std::to_string(launch.params.size()));
      for (size_t i = 0; i < launch.params.size(); ++i) {
        getParamSize(driver, prepared.function, i, size);
        if (size != launch.params[i].getSize())
          return Status::failure(
              ErrorClass::LaunchError,
              kernel + ": parameter " + std::to_string(i) + " has " +
                  std::to_string(size) + " bytes, the launch passes " +
                  std::to_string(launch.params[i].getSize()) + " (" +
                  describeParam(launch.params[i]) + ")");
      }
    }
    for (const LaunchParam &param : launch.params) {
      std::vector<uint8_t> value(param.getSize());
      switch (param.kind) {
      case LaunchParam::Kind::Pointer: {
        CUdeviceptr pointer = buffers[param.buffer].get() +
                              static_cast<CUdeviceptr>(param.offset);
        std::memcpy(value.data(), &pointer, sizeof(pointer));
        break;
      }
      case LaunchParam::Kind::I64:
        std::memcpy(value.data(), &param.value, 8);
        break;
      case LaunchParam::Kind::I32: {
        uint32_t narrow = static_cast<uint32_t>(param.value);
        std::memcpy(value.data(), &narrow, 4);
        break;
      }
      case LaunchParam::Kind::Bytes:
        value = param.bytes;
        break;
      }
      prepared.values.push_back(std::move(value));
    }
    for (std::vector<uint8_t> &value : prepared.values)
      prepared.pointers.push_back(value.data());
    launches.push_back(std::move(prepared));
  }
  return Status::success();
}

Status CandidateRun::enqueueSteps() {
  size_t launchIndex = 0;
  for (size_t i = 0; i < candidate.steps.size(); ++i) {
    const Step &step = candidate.steps[i];
    Status status;
    if (step.kind == Step::Kind::Launch) {
      PreparedLaunch &launch = launches[launchIndex++];
      const LaunchStep &spec = *launch.step;
      status = driver.check(
          driver->cuLaunchKernel(launch.function, spec.grid[0], spec.grid[1],
                                 spec.grid[2], spec.block[0], spec.block[1],
                                 spec.block[2], spec.sharedBytes, stream,
                                 launch.pointers.data(), nullptr),
          "step " + std::to_string(i) + ": launching kernel '" + spec.kernel +
              "'");
    } else {
      const CopyStep &copy = step.copy;
      status =
          driver.check(driver->cuMemcpyDtoDAsync(
                           buffers[copy.dst].get() +
                               static_cast<CUdeviceptr>(copy.dstOffset),
                           buffers[copy.src].get() +
                               static_cast<CUdeviceptr>(copy.srcOffset),
                           static_cast<size_t>(copy.bytes), stream),
                       "step " + std::to_string(i) + ": cuMemcpyDtoDAsync");
    }
    if (!status.ok())
      return status;
  }
  return Status::success();
}

Status CandidateRun::compareOutputs(CandidateResult &result) {
  result.compared = !candidate.checks.empty();
  for (size_t i = 0; i < candidate.checks.size(); ++i) {
    const CheckSpec &check = candidate.checks[i];
    size_t bytes = static_cast<size_t>(check.count) * getDTypeSize(check.dtype);
    std::vector<char> got(bytes);
    Status status = driver.check(
        driver->cuMemcpyDtoH(got.data(),
                             buffers[check.buffer].get() +
                                 static_cast<CUdeviceptr>(check.offset),
                             bytes),
        "check " + std::to_string(i) + ": cuMemcpyDtoH");
    if (!status.ok())
      return status;
    std::string want, error;
    if (!readFile(check.expected, want, error))
      return Status::failure(ErrorClass::LaunchError,
                             "check " + std::to_string(i) + ": " + error);
    if (want.size() != bytes)
      return Status::failure(ErrorClass::LaunchError,
                             "check " + std::to_string(i) + ": '" +
                                 check.expected + "' changed size");
    CompareResult compared =
        compareElements(check.dtype, got.data(), want.data(), check.count,
                        check.rtol, check.atol);
    result.maxAbsError = std::max(result.maxAbsError, compared.maxAbsError);
    result.maxRelError = std::max(result.maxRelError, compared.maxRelError);
    if (!compared.passed() && result.status == "ok") {
      result.status = "wrong_result";
      result.message =
          "check " + std::to_string(i) + " (buffer " +
          std::to_string(check.buffer) + ", offset " +
          std::to_string(check.offset) + ", " + stringifyDType(check.dtype) +
          ", rtol " + json::formatNumber(check.rtol) + ", atol " +
          json::formatNumber(check.atol) + "): " + compared.describe();
    }
  }
  return Status::success();
}

/// The result for a failure.
static CandidateResult resultOf(const Status &status) {
  CandidateResult result;
  result.status = status.errorClass == ErrorClass::OutOfResources
                      ? "out_of_resources"
                      : "launch_error";
  result.message = status.message;
  result.sticky = status.errorClass == ErrorClass::Sticky;
  if (result.sticky)
    result.message += " (the CUDA context is unusable: the runner exits)";
  return result;
}

CandidateResult CandidateRunner::run(const Candidate &candidate) {
  CandidateRun run(driver, device, stream, candidate);
  CandidateResult result;
  Status status = run.loadModules();
  if (status.ok())
    status = run.allocateBuffers();
  if (status.ok())
    status = run.prepareLaunches();
  if (status.ok())
    status = run.enqueueSteps();
  if (status.ok())
    status = run.synchronize("running the steps");
  if (status.ok() && options.verify)
    status = run.compareOutputs(result);
  if (status.ok() && result.status == "ok") {
    TimingOptions timing;
    timing.warmupMs = options.warmupMs;
    timing.minTimeMs = options.minTimeMs;
    timing.minRepeats = options.minRepeats;
    timing.maxRepeats = options.maxRepeats;
    timing.flushL2 = options.flushL2;
    status = timeRepeated(
        driver, stream, flusher, timing, [&] { return run.enqueueSteps(); },
        result.timing);
  }
  if (status.ok())
    return result;
  CandidateResult failed = resultOf(status);
  if (failed.sticky)
    run.abandon();
  return failed;
}
