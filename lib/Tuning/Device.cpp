//===- Device.cpp - Descriptions of NVIDIA GPUs read from JSON ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Device.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>

using namespace mlir;
using namespace mlir::tessel;
using llvm::Expected;
using llvm::StringRef;

#ifndef TESSEL_DEVICES_DIR
#define TESSEL_DEVICES_DIR "devices"
#endif

namespace {
enum class FieldKind { String, Integer, Number };

/// One JSON key of a device file and where it lands in DeviceDescription.
struct FieldInfo {
  StringRef key;
  FieldKind kind;
  std::string DeviceDescription::*stringField = nullptr;
  int64_t DeviceDescription::*integerField = nullptr;
  double DeviceDescription::*numberField = nullptr;
  /// An optional field may be absent (it stays 0, and is not written then).
  bool optional = false;
};
} // namespace

static FieldInfo stringField(StringRef key,
                             std::string DeviceDescription::*field) {
  return {key, FieldKind::String, field, nullptr, nullptr};
}
static FieldInfo integerField(StringRef key,
                              int64_t DeviceDescription::*field) {
  return {key, FieldKind::Integer, nullptr, field, nullptr};
}
static FieldInfo numberField(StringRef key, double DeviceDescription::*field) {
  return {key, FieldKind::Number, nullptr, nullptr, field};
}
static FieldInfo optionalNumberField(StringRef key,
                                     double DeviceDescription::*field) {
  return {key, FieldKind::Number, nullptr, nullptr, field, /*optional=*/true};
}

/// Every field of the schema, in the order of devices/README.md.
static llvm::ArrayRef<FieldInfo> getFields() {
  using D = DeviceDescription;
  static const FieldInfo fields[] = {
      stringField("name", &D::name),
      stringField("id", &D::id),
      stringField("compute_capability", &D::computeCapability),
      stringField("chip", &D::chip),
      integerField("sm_count", &D::smCount),
      integerField("warp_size", &D::warpSize),
      integerField("max_threads_per_block", &D::maxThreadsPerBlock),
      integerField("max_threads_per_sm", &D::maxThreadsPerSm),
      integerField("max_blocks_per_sm", &D::maxBlocksPerSm),
      integerField("max_warps_per_sm", &D::maxWarpsPerSm),
      integerField("registers_per_sm", &D::registersPerSm),
      integerField("max_registers_per_thread", &D::maxRegistersPerThread),
      integerField("register_allocation_unit", &D::registerAllocationUnit),
      integerField("shared_memory_per_sm_bytes", &D::sharedMemoryPerSmBytes),
      integerField("max_shared_memory_per_block_bytes",
                   &D::maxSharedMemoryPerBlockBytes),
      integerField("default_shared_memory_per_block_bytes",
                   &D::defaultSharedMemoryPerBlockBytes),
      integerField("shared_memory_allocation_unit_bytes",
                   &D::sharedMemoryAllocationUnitBytes),
      integerField("shared_memory_banks", &D::sharedMemoryBanks),
      integerField("l2_cache_bytes", &D::l2CacheBytes),
      numberField("dram_bandwidth_gbps", &D::dramBandwidthGbps),
      numberField("fp32_peak_gflops", &D::fp32PeakGflops),
      integerField("boost_clock_mhz", &D::boostClockMhz),
      integerField("fp32_lanes_per_sm", &D::fp32LanesPerSm),
      numberField("launch_overhead_us", &D::launchOverheadUs),
      optionalNumberField("fp16_tensor_peak_gflops", &D::fp16TensorPeakGflops),
      optionalNumberField("tf32_tensor_peak_gflops", &D::tf32TensorPeakGflops),
      optionalNumberField("barrier_latency_ns", &D::barrierLatencyNs),
      optionalNumberField("load_barrier_latency_ns", &D::loadBarrierLatencyNs),
  };
  return fields;
}

llvm::ArrayRef<StringRef> mlir::tessel::getDeviceFieldNames() {
  static const std::vector<StringRef> names = [] {
    std::vector<StringRef> result;
    for (const FieldInfo &field : getFields())
      result.push_back(field.key);
    return result;
  }();
  return names;
}

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The JSON type of `value`, for "wrong type" messages.
static StringRef describeKind(const llvm::json::Value &value) {
  switch (value.kind()) {
  case llvm::json::Value::Null:
    return "null";
  case llvm::json::Value::Boolean:
    return "a boolean";
  case llvm::json::Value::Number:
    return value.getAsInteger() ? "an integer" : "a number";
  case llvm::json::Value::String:
    return "a string";
  case llvm::json::Value::Array:
    return "an array";
  case llvm::json::Value::Object:
    return "an object";
  }
  llvm_unreachable("unknown JSON kind");
}

/// "unknown field 'sm_cout' (did you mean 'sm_count'?)".
static std::string describeUnknownField(StringRef key,
                                        llvm::ArrayRef<StringRef> known) {
  std::string message = ("unknown field '" + key + "'").str();
  StringRef best;
  unsigned bestDistance = 3;
  for (StringRef candidate : known) {
    unsigned distance = key.edit_distance(candidate, true, bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (!best.empty())
    message += (" (did you mean '" + best + "'?)").str();
  return message;
}

/// Turns llvm::json's "[L:C, byte=N]: message" into "file:L:C: invalid JSON:
/// message". llvm::json reports the column just after the offending
/// character, which is that character's 1-based column.
static llvm::Error convertParseError(llvm::Error error, StringRef fileName) {
  std::string text = llvm::toString(std::move(error));
  StringRef rest = text;
  unsigned line = 0, column = 0;
  if (rest.consume_front("[") && !rest.consumeInteger(10, line) &&
      rest.consume_front(":") && !rest.consumeInteger(10, column)) {
    rest = rest.drop_until([](char c) { return c == ']'; });
    rest.consume_front("]: ");
    return makeError(llvm::formatv("{0}:{1}:{2}: invalid JSON: {3}", fileName,
                                   line, column, rest));
  }
  return makeError(fileName + ": invalid JSON: " + text);
}

/// A double as JSON writes it ("0", "-2.5").
static std::string formatNumber(double value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(value);
  return text;
}

static bool parseComputeCapability(StringRef text, int &major, int &minor) {
  auto [majorText, minorText] = text.split('.');
  return !majorText.empty() && !minorText.empty() &&
         !majorText.getAsInteger(10, major) &&
         !minorText.getAsInteger(10, minor) && major >= 0 && minor >= 0;
}

Expected<DeviceDescription> DeviceDescription::parse(StringRef json,
                                                     StringRef fileName) {
  Expected<llvm::json::Value> root = llvm::json::parse(json);
  if (!root)
    return convertParseError(root.takeError(), fileName);
  const llvm::json::Object *object = root->getAsObject();
  if (!object)
    return makeError(fileName + ": expected a JSON object, got " +
                     describeKind(*root));

  // Unknown keys first: a misspelled key is also a missing one, and the
  // misspelling is the more useful message. Sorted for a stable report.
  std::vector<StringRef> knownKeys(getDeviceFieldNames().begin(),
                                   getDeviceFieldNames().end());
  knownKeys.push_back("sources");
  std::vector<StringRef> keys;
  for (const auto &entry : *object)
    keys.push_back(entry.first);
  llvm::sort(keys);
  for (StringRef key : keys)
    if (!llvm::is_contained(knownKeys, key))
      return makeError(fileName + ": " + describeUnknownField(key, knownKeys));

  DeviceDescription device;
  for (const FieldInfo &field : getFields()) {
    const llvm::json::Value *value = object->get(field.key);
    if (!value && field.optional)
      continue;
    if (!value)
      return makeError(fileName + ": missing field '" + field.key + "'");
    auto wrongType = [&](StringRef expected) {
      return makeError(fileName + ": field '" + field.key + "' must be " +
                       expected + ", got " + describeKind(*value));
    };
    switch (field.kind) {
    case FieldKind::String: {
      std::optional<StringRef> text = value->getAsString();
      if (!text)
        return wrongType("a string");
      if (text->empty())
        return makeError(fileName + ": field '" + field.key +
                         "' must not be empty");
      device.*field.stringField = text->str();
      break;
    }
    case FieldKind::Integer: {
      std::optional<int64_t> number = value->getAsInteger();
      if (!number)
        return wrongType("an integer");
      if (*number <= 0)
        return makeError(fileName + ": field '" + field.key +
                         "' must be positive, got " + llvm::Twine(*number));
      device.*field.integerField = *number;
      break;
    }
    case FieldKind::Number: {
      std::optional<double> number = value->getAsNumber();
      if (!number)
        return wrongType("a number");
      if (!(*number > 0))
        return makeError(fileName + ": field '" + field.key +
                         "' must be positive, got " + formatNumber(*number));
      device.*field.numberField = *number;
      break;
    }
    }
  }

  if (const llvm::json::Value *sources = object->get("sources")) {
    const llvm::json::Object *sourceObject = sources->getAsObject();
    if (!sourceObject)
      return makeError(fileName + ": field 'sources' must be an object, got " +
                       describeKind(*sources));
    std::vector<StringRef> sourceKeys;
    for (const auto &entry : *sourceObject)
      sourceKeys.push_back(entry.first);
    llvm::sort(sourceKeys);
    for (StringRef key : sourceKeys) {
      if (!llvm::is_contained(getDeviceFieldNames(), key))
        return makeError(fileName + ": sources: " +
                         describeUnknownField(key, getDeviceFieldNames()));
      std::optional<StringRef> text = sourceObject->getString(key);
      if (!text)
        return makeError(fileName + ": field 'sources." + key +
                         "' must be a string, got " +
                         describeKind(*sourceObject->get(key)));
      device.sources[key.str()] = text->str();
    }
  }

  // Cross-field consistency.
  int major = 0, minor = 0;
  if (!parseComputeCapability(device.computeCapability, major, minor))
    return makeError(fileName +
                     ": field 'compute_capability' must be "
                     "\"major.minor\", got '" +
                     device.computeCapability + "'");
  std::string expectedChip = llvm::formatv("sm_{0}{1}", major, minor).str();
  if (device.chip != expectedChip)
    return makeError(fileName + ": field 'chip' is '" + device.chip +
                     "' but compute capability " + device.computeCapability +
                     " is '" + expectedChip + "'");
  if (device.maxWarpsPerSm * device.warpSize != device.maxThreadsPerSm)
    return makeError(llvm::formatv(
        "{0}: max_warps_per_sm ({1}) must equal max_threads_per_sm / "
        "warp_size ({2} / {3})",
        fileName, device.maxWarpsPerSm, device.maxThreadsPerSm,
        device.warpSize));
  if (device.maxThreadsPerBlock > device.maxThreadsPerSm)
    return makeError(fileName + ": max_threads_per_block (" +
                     llvm::Twine(device.maxThreadsPerBlock) +
                     ") exceeds max_threads_per_sm (" +
                     llvm::Twine(device.maxThreadsPerSm) + ")");
  if (device.maxSharedMemoryPerBlockBytes > device.sharedMemoryPerSmBytes)
    return makeError(fileName + ": max_shared_memory_per_block_bytes (" +
                     llvm::Twine(device.maxSharedMemoryPerBlockBytes) +
                     ") exceeds shared_memory_per_sm_bytes (" +
                     llvm::Twine(device.sharedMemoryPerSmBytes) + ")");
  if (device.defaultSharedMemoryPerBlockBytes >
      device.maxSharedMemoryPerBlockBytes)
    return makeError(fileName + ": default_shared_memory_per_block_bytes (" +
                     llvm::Twine(device.defaultSharedMemoryPerBlockBytes) +
                     ") exceeds max_shared_memory_per_block_bytes (" +
                     llvm::Twine(device.maxSharedMemoryPerBlockBytes) + ")");
  return device;
}

Expected<DeviceDescription> DeviceDescription::load(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return makeError(path +
                     ": cannot read file: " + buffer.getError().message());
  Expected<DeviceDescription> device = parse((*buffer)->getBuffer(), path);
  if (!device)
    return device.takeError();
  StringRef stem = llvm::sys::path::stem(path);
  if (device->id != stem)
    return makeError(path + ": id '" + device->id +
                     "' does not match the file name '" + stem + "'");
  return device;
}

int DeviceDescription::getComputeCapabilityMajor() const {
  int major = 0, minor = 0;
  parseComputeCapability(computeCapability, major, minor);
  return major;
}

int DeviceDescription::getComputeCapabilityMinor() const {
  int major = 0, minor = 0;
  parseComputeCapability(computeCapability, major, minor);
  return minor;
}

int64_t DeviceDescription::getReservedSharedMemoryPerBlockBytes() const {
  return getComputeCapabilityMajor() >= 8 ? 1024 : 0;
}

std::string DeviceDescription::toJSON() const {
  llvm::json::Object object;
  for (const FieldInfo &field : getFields()) {
    switch (field.kind) {
    case FieldKind::String:
      object[field.key] = this->*field.stringField;
      break;
    case FieldKind::Integer:
      object[field.key] = this->*field.integerField;
      break;
    case FieldKind::Number:
      if (field.optional && this->*field.numberField == 0)
        break;
      object[field.key] = this->*field.numberField;
      break;
    }
  }
  if (!sources.empty()) {
    llvm::json::Object sourceObject;
    for (const auto &[key, text] : sources)
      sourceObject[key] = text;
    object["sources"] = std::move(sourceObject);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(object)));
  return text;
}

StringRef mlir::tessel::getDefaultDevicesDir() {
  static const std::string dir = [] {
    if (const char *env = std::getenv("TESSEL_DEVICES_DIR"))
      return std::string(env);
    // An installed bundle keeps devices/ beside bin/.
    std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
    llvm::SmallString<256> bundled(llvm::sys::path::parent_path(self));
    llvm::sys::path::append(bundled, "..", "devices");
    if (!self.empty() && llvm::sys::fs::is_directory(bundled) &&
        !llvm::sys::fs::is_directory(TESSEL_DEVICES_DIR))
      return std::string(bundled);
    return std::string(TESSEL_DEVICES_DIR);
  }();
  return dir;
}

/// The `*.json` files of `dir`, sorted.
static Expected<std::vector<std::string>> listDeviceFiles(StringRef dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".json")
      files.push_back(it->path());
  if (ec)
    return makeError(dir + ": cannot list directory: " + ec.message());
  llvm::sort(files);
  return files;
}

Expected<std::vector<DeviceDescription>>
mlir::tessel::loadAllDevices(StringRef devicesDir) {
  StringRef dir = devicesDir.empty() ? getDefaultDevicesDir() : devicesDir;
  Expected<std::vector<std::string>> files = listDeviceFiles(dir);
  if (!files)
    return files.takeError();
  std::vector<DeviceDescription> devices;
  for (const std::string &file : *files) {
    Expected<DeviceDescription> device = DeviceDescription::load(file);
    if (!device)
      return device.takeError();
    devices.push_back(std::move(*device));
  }
  llvm::sort(devices, [](const DeviceDescription &a,
                         const DeviceDescription &b) { return a.id < b.id; });
  return devices;
}

Expected<DeviceDescription> mlir::tessel::findDevice(StringRef id,
                                                     StringRef devicesDir) {
  StringRef dir = devicesDir.empty() ? getDefaultDevicesDir() : devicesDir;
  StringRef resolved = llvm::StringSwitch<StringRef>(id)
                           .Case("h100", "h100-sxm")
                           .Case("a100", "a100-sxm4-80gb")
                           .Default(id);
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, resolved + ".json");
  bool isPlainName = !resolved.empty() && !resolved.contains('/') &&
                     !resolved.contains('\\') && !resolved.starts_with(".");
  if (isPlainName && llvm::sys::fs::exists(path))
    return DeviceDescription::load(path);

  std::vector<std::string> known;
  if (Expected<std::vector<std::string>> files = listDeviceFiles(dir)) {
    for (const std::string &file : *files)
      known.push_back(llvm::sys::path::stem(file).str());
  } else {
    llvm::consumeError(files.takeError());
  }
  return makeError(
      "unknown device '" + id + "' (no " + path + "); known devices: " +
      (known.empty() ? std::string("none") : llvm::join(known, ", ")));
}

std::vector<std::string>
DeviceDescription::applyDriverFacts(const llvm::json::Object &facts) {
  std::vector<std::string> changed;
  auto apply = [&](StringRef key, int64_t &field, StringRef name,
                   int64_t scale = 1) {
    std::optional<int64_t> value = facts.getInteger(key);
    if (!value || *value <= 0 || *value / scale == field)
      return;
    field = *value / scale;
    changed.push_back(name.str());
  };
  if (std::optional<StringRef> driverName = facts.getString("name"))
    if (!driverName->empty() && *driverName != name) {
      name = driverName->str();
      changed.push_back("name");
    }
  apply("sm_count", smCount, "sm_count");
  apply("l2_bytes", l2CacheBytes, "l2_cache_bytes");
  apply("shared_bytes_per_sm", sharedMemoryPerSmBytes,
        "shared_memory_per_sm_bytes");
  apply("shared_bytes_per_block_optin", maxSharedMemoryPerBlockBytes,
        "max_shared_memory_per_block_bytes");
  apply("shared_bytes_per_block", defaultSharedMemoryPerBlockBytes,
        "default_shared_memory_per_block_bytes");
  apply("max_threads_per_block", maxThreadsPerBlock, "max_threads_per_block");
  apply("registers_per_sm", registersPerSm, "registers_per_sm");
  apply("clock_khz", boostClockMhz, "boost_clock_mhz", 1000);
  return changed;
}

Expected<DeviceDescription>
mlir::tessel::findDeviceForDriver(const llvm::json::Object &facts,
                                  StringRef devicesDir) {
  StringRef name = facts.getString("name").value_or("");
  // Marketing names as drivers report them, most specific first.
  static const std::pair<StringRef, StringRef> kNames[] = {
      {"H200", "h200"},       {"H100", "h100-sxm"}, {"A100", "a100-sxm4-80gb"},
      {"V100", "v100"},       {"P100", "p100"},     {"RTX 4090", "rtx4090"},
      {"RTX 3090", "rtx3090"}, {"T4", "t4"}};
  for (auto [marker, id] : kNames) {
    if (!name.contains(marker))
      continue;
    Expected<DeviceDescription> device = findDevice(id, devicesDir);
    if (!device)
      return device.takeError();
    device->applyDriverFacts(facts);
    return device;
  }
  return llvm::createStringError("no device file describes the GPU '" +
                                 name.str() + "'");
}
