//===- DeviceTest.cpp - Tests of device descriptions ----------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Device.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// The message of a failed Expected, or "" when it succeeded.
template <typename T>
std::string errorOf(llvm::Expected<T> value) {
  if (value)
    return "";
  return llvm::toString(value.takeError());
}

/// A valid device file (H100 SXM5 numbers) with `edit` applied to it.
std::string makeDevice(llvm::function_ref<void(llvm::json::Object &)> edit =
                           [](llvm::json::Object &) {}) {
  llvm::json::Object object{
      {"name", "NVIDIA H100 SXM5 80GB"},
      {"id", "x"},
      {"compute_capability", "9.0"},
      {"chip", "sm_90"},
      {"sm_count", 132},
      {"warp_size", 32},
      {"max_threads_per_block", 1024},
      {"max_threads_per_sm", 2048},
      {"max_blocks_per_sm", 32},
      {"max_warps_per_sm", 64},
      {"registers_per_sm", 65536},
      {"max_registers_per_thread", 255},
      {"register_allocation_unit", 256},
      {"shared_memory_per_sm_bytes", 233472},
      {"max_shared_memory_per_block_bytes", 232448},
      {"default_shared_memory_per_block_bytes", 49152},
      {"shared_memory_allocation_unit_bytes", 128},
      {"shared_memory_banks", 32},
      {"l2_cache_bytes", 52428800},
      {"dram_bandwidth_gbps", 3350},
      {"fp32_peak_gflops", 66900},
      {"boost_clock_mhz", 1980},
      {"fp32_lanes_per_sm", 128},
      {"launch_overhead_us", 3.0},
  };
  edit(object);
  return llvm::formatv("{0:2}", llvm::json::Value(std::move(object))).str();
}

TEST(DeviceTest, ParsesEveryDeviceFile) {
  std::error_code ec;
  int count = 0;
  for (llvm::sys::fs::directory_iterator it(getDefaultDevicesDir(), ec), end;
       it != end && !ec; it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".json")
      continue;
    ++count;
    llvm::Expected<DeviceDescription> device =
        DeviceDescription::load(it->path());
    ASSERT_TRUE(static_cast<bool>(device))
        << llvm::toString(device.takeError());
    EXPECT_EQ(device->id, llvm::sys::path::stem(it->path()).str());
    EXPECT_EQ(device->maxWarpsPerSm * device->warpSize,
              device->maxThreadsPerSm);
    // Every field the file has is sourced; only the optional tensor peaks
    // may be absent (chips before sm_80), and the fitted barrier latencies
    // (devices without measurements); TF32 is half of FP16 on every
    // datasheet.
    size_t present = getDeviceFieldNames().size() -
                     (device->fp16TensorPeakGflops == 0 ? 1 : 0) -
                     (device->tf32TensorPeakGflops == 0 ? 1 : 0) -
                     (device->barrierLatencyNs == 0 ? 1 : 0) -
                     (device->loadBarrierLatencyNs == 0 ? 1 : 0);
    EXPECT_EQ(device->sources.size(), present) << it->path();
    EXPECT_EQ(device->fp16TensorPeakGflops > 0,
              device->getComputeCapabilityMajor() >= 8)
        << it->path();
    EXPECT_EQ(device->tf32TensorPeakGflops > 0,
              device->getComputeCapabilityMajor() >= 8)
        << it->path();
    EXPECT_NEAR(device->tf32TensorPeakGflops * 2,
                device->fp16TensorPeakGflops, 0.01 * device->fp16TensorPeakGflops)
        << it->path();
    // fp32_peak_gflops is about lanes * 2 * clock (README: within 0.5%; the
    // T4's datasheet 8100 is 0.501% below 8140.8).
    double computed =
        static_cast<double>(device->smCount * device->fp32LanesPerSm * 2 *
                            device->boostClockMhz) /
        1000.0;
    EXPECT_NEAR(device->fp32PeakGflops / computed, 1.0, 0.0051) << it->path();
  }
  EXPECT_FALSE(ec);
  EXPECT_GE(count, 8);
}

// The optional tensor peak: absent reads as 0 and is not written back.
TEST(DeviceTest, TensorPeakIsOptional) {
  llvm::Expected<DeviceDescription> without =
      DeviceDescription::parse(makeDevice(),
                               "x.json");
  ASSERT_TRUE(static_cast<bool>(without)) << llvm::toString(without.takeError());
  EXPECT_EQ(without->fp16TensorPeakGflops, 0);
  EXPECT_EQ(without->toJSON().find("fp16_tensor_peak_gflops"),
            std::string::npos);
  llvm::Expected<DeviceDescription> with =
      DeviceDescription::parse(makeDevice([](llvm::json::Object &o) {
                                 o["fp16_tensor_peak_gflops"] = 989400.0;
                               }),
                               "x.json");
  ASSERT_TRUE(static_cast<bool>(with)) << llvm::toString(with.takeError());
  EXPECT_EQ(with->fp16TensorPeakGflops, 989400);
  EXPECT_NE(with->toJSON().find("\"fp16_tensor_peak_gflops\": 989400"),
            std::string::npos);
  EXPECT_EQ(without->tf32TensorPeakGflops, 0);
  EXPECT_EQ(without->toJSON().find("tf32_tensor_peak_gflops"),
            std::string::npos);
  llvm::Expected<DeviceDescription> tf32 =
      DeviceDescription::parse(makeDevice([](llvm::json::Object &o) {
                                 o["tf32_tensor_peak_gflops"] = 494700.0;
                               }),
                               "x.json");
  ASSERT_TRUE(static_cast<bool>(tf32)) << llvm::toString(tf32.takeError());
  EXPECT_EQ(tf32->tf32TensorPeakGflops, 494700);
  EXPECT_NE(tf32->toJSON().find("\"tf32_tensor_peak_gflops\": 494700"),
            std::string::npos);
}

TEST(DeviceTest, H100Values) {
  llvm::Expected<DeviceDescription> device = findDevice("h100-sxm");
  ASSERT_TRUE(static_cast<bool>(device)) << llvm::toString(device.takeError());
  EXPECT_EQ(device->name, "NVIDIA H100 SXM5 80GB");
  EXPECT_EQ(device->chip, "sm_90");
  EXPECT_EQ(device->getComputeCapabilityMajor(), 9);
  EXPECT_EQ(device->getComputeCapabilityMinor(), 0);
  EXPECT_EQ(device->smCount, 132);
  EXPECT_EQ(device->sharedMemoryPerSmBytes, 228 * 1024);
  EXPECT_EQ(device->l2CacheBytes, 50 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(device->dramBandwidthGbps, 3350);
  EXPECT_EQ(device->getReservedSharedMemoryPerBlockBytes(), 1024);
}

TEST(DeviceTest, FindDeviceAliasesAndErrors) {
  llvm::Expected<DeviceDescription> h100 = findDevice("h100");
  ASSERT_TRUE(static_cast<bool>(h100)) << llvm::toString(h100.takeError());
  EXPECT_EQ(h100->id, "h100-sxm");
  llvm::Expected<DeviceDescription> a100 = findDevice("a100");
  ASSERT_TRUE(static_cast<bool>(a100)) << llvm::toString(a100.takeError());
  EXPECT_EQ(a100->id, "a100-sxm4-80gb");

  std::string message = errorOf(findDevice("b200"));
  EXPECT_NE(message.find("unknown device 'b200'"), std::string::npos)
      << message;
  EXPECT_NE(message.find("known devices: a100-sxm4-80gb, h100-sxm, h200, "),
            std::string::npos)
      << message;
  message = errorOf(findDevice("../devices/h100-sxm"));
  EXPECT_NE(message.find("unknown device '../devices/h100-sxm'"),
            std::string::npos)
      << message;
}

TEST(DeviceTest, LoadAllDevicesSortedById) {
  llvm::Expected<std::vector<DeviceDescription>> devices = loadAllDevices();
  ASSERT_TRUE(static_cast<bool>(devices))
      << llvm::toString(devices.takeError());
  ASSERT_GE(devices->size(), 8u);
  EXPECT_EQ(devices->front().id, "a100-sxm4-80gb");
  EXPECT_TRUE(llvm::is_sorted(
      *devices, [](const DeviceDescription &a, const DeviceDescription &b) {
        return a.id < b.id;
      }));
}

TEST(DeviceTest, ParsesMinimalValidFile) {
  llvm::Expected<DeviceDescription> device =
      DeviceDescription::parse(makeDevice(), "devices/x.json");
  ASSERT_TRUE(static_cast<bool>(device)) << llvm::toString(device.takeError());
  EXPECT_TRUE(device->sources.empty());
  EXPECT_EQ(device->registerAllocationUnit, 256);
}

TEST(DeviceTest, RoundTripsThroughJSON) {
  llvm::Expected<DeviceDescription> device = findDevice("t4");
  ASSERT_TRUE(static_cast<bool>(device)) << llvm::toString(device.takeError());
  llvm::Expected<DeviceDescription> again =
      DeviceDescription::parse(device->toJSON(), "t4.json");
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(again->toJSON(), device->toJSON());
}

TEST(DeviceTest, MalformedJSON) {
  EXPECT_EQ(errorOf(DeviceDescription::parse("{\n  \"sm_count\": 132\n  "
                                             "\"warp_size\": 32\n}",
                                             "devices/x.json")),
            "devices/x.json:3:3: invalid JSON: Expected , or } after object "
            "property");
  EXPECT_EQ(errorOf(DeviceDescription::parse("[1, 2]", "devices/x.json")),
            "devices/x.json: expected a JSON object, got an array");
}

TEST(DeviceTest, MissingField) {
  std::string json =
      makeDevice([](llvm::json::Object &object) { object.erase("sm_count"); });
  EXPECT_EQ(errorOf(DeviceDescription::parse(json, "devices/x.json")),
            "devices/x.json: missing field 'sm_count'");
}

TEST(DeviceTest, NegativeValue) {
  std::string json = makeDevice(
      [](llvm::json::Object &object) { object["l2_cache_bytes"] = -4; });
  EXPECT_EQ(errorOf(DeviceDescription::parse(json, "devices/x.json")),
            "devices/x.json: field 'l2_cache_bytes' must be positive, got -4");
  json = makeDevice(
      [](llvm::json::Object &object) { object["dram_bandwidth_gbps"] = 0; });
  EXPECT_EQ(errorOf(DeviceDescription::parse(json, "devices/x.json")),
            "devices/x.json: field 'dram_bandwidth_gbps' must be positive, "
            "got 0");
}

TEST(DeviceTest, UnknownField) {
  std::string json = makeDevice(
      [](llvm::json::Object &object) { object["tensor_cores"] = 528; });
  EXPECT_EQ(errorOf(DeviceDescription::parse(json, "devices/x.json")),
            "devices/x.json: unknown field 'tensor_cores'");
  // A misspelling is reported as such, not as the missing field.
  json = makeDevice([](llvm::json::Object &object) {
    object.erase("sm_count");
    object["sm_cout"] = 132;
  });
  EXPECT_EQ(errorOf(DeviceDescription::parse(json, "devices/x.json")),
            "devices/x.json: unknown field 'sm_cout' (did you mean "
            "'sm_count'?)");
  json = makeDevice([](llvm::json::Object &object) {
    object["sources"] = llvm::json::Object{{"foo", "bar"}};
  });
  EXPECT_EQ(errorOf(DeviceDescription::parse(json, "devices/x.json")),
            "devices/x.json: sources: unknown field 'foo'");
}

TEST(DeviceTest, WrongType) {
  std::string json = makeDevice(
      [](llvm::json::Object &object) { object["warp_size"] = "32"; });
  EXPECT_EQ(errorOf(DeviceDescription::parse(json, "devices/x.json")),
            "devices/x.json: field 'warp_size' must be an integer, got a "
            "string");
  json =
      makeDevice([](llvm::json::Object &object) { object["sm_count"] = 13.5; });
  EXPECT_EQ(errorOf(DeviceDescription::parse(json, "devices/x.json")),
            "devices/x.json: field 'sm_count' must be an integer, got a "
            "number");
  json = makeDevice([](llvm::json::Object &object) { object["chip"] = 90; });
  EXPECT_EQ(errorOf(DeviceDescription::parse(json, "devices/x.json")),
            "devices/x.json: field 'chip' must be a string, got an integer");
}

TEST(DeviceTest, InconsistentValues) {
  std::string json = makeDevice(
      [](llvm::json::Object &object) { object["max_warps_per_sm"] = 48; });
  EXPECT_EQ(errorOf(DeviceDescription::parse(json, "devices/x.json")),
            "devices/x.json: max_warps_per_sm (48) must equal "
            "max_threads_per_sm / warp_size (2048 / 32)");
  json =
      makeDevice([](llvm::json::Object &object) { object["chip"] = "sm_80"; });
  EXPECT_EQ(errorOf(DeviceDescription::parse(json, "devices/x.json")),
            "devices/x.json: field 'chip' is 'sm_80' but compute capability "
            "9.0 is 'sm_90'");
}

TEST(DeviceTest, LoadErrors) {
  std::string message = errorOf(DeviceDescription::load("/nonexistent/y.json"));
  EXPECT_EQ(message.rfind("/nonexistent/y.json: cannot read file: ", 0), 0u)
      << message;

  // The id must be the file name.
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("device", "json", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << makeDevice();
  }
  message = errorOf(DeviceDescription::load(path));
  llvm::sys::fs::remove(path);
  EXPECT_EQ(message, (path + ": id 'x' does not match the file name '" +
                      llvm::sys::path::stem(path) + "'")
                         .str());
}

} // namespace

namespace {
TEST(DeviceDriverFactsTest, DriverFactsOverrideTheFile) {
  llvm::json::Object facts{{"name", "NVIDIA H100 80GB HBM3"},
                           {"sm_count", 132},
                           {"l2_bytes", 52428800},
                           {"shared_bytes_per_block_optin", 232448},
                           {"clock_khz", 1755000},
                           {"max_threads_per_block", 1024}};
  auto device = mlir::tessel::findDeviceForDriver(facts);
  ASSERT_TRUE(static_cast<bool>(device)) << llvm::toString(device.takeError());
  EXPECT_EQ(device->id, "h100-sxm");
  EXPECT_EQ(device->name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(device->boostClockMhz, 1755);
  EXPECT_EQ(device->smCount, 132);

  mlir::tessel::DeviceDescription copy = *device;
  llvm::json::Object fewer{{"sm_count", 114}};
  EXPECT_EQ(copy.applyDriverFacts(fewer), std::vector<std::string>{"sm_count"});
  EXPECT_EQ(copy.smCount, 114);

  auto unknown = mlir::tessel::findDeviceForDriver(
      llvm::json::Object{{"name", "Fake GPU"}});
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_EQ(llvm::toString(unknown.takeError()),
            "no device file describes the GPU 'Fake GPU'");
}
} // namespace
