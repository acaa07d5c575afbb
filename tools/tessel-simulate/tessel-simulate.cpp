//===- tessel-simulate.cpp - The simulated GPU on recorded kernels --------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Times kernels described by their facts, launch shape and ptxas resources
// (one candidate per line, in the queue's encoding: CandidateCodec.h) on the
// simulated GPU, without compiling anything: the calibration of the
// simulator against measured kernels (scripts/calibrate-sim) replays the
// facts of every measured kernel through it. Prints one JSON object per
// line: the candidate's key, the status, the simulated time and the unit
// that bounds it.
//
//===----------------------------------------------------------------------===//

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Measure/CandidateCodec.h"
#include "tessel/Tuning/Measure/SimulatedMeasurer.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tessel;
namespace cl = llvm::cl;

static cl::OptionCategory category("tessel-simulate options");
static cl::opt<std::string> inputFile(cl::Positional, cl::init("-"),
                                      cl::desc("<candidates, one a line>"),
                                      cl::cat(category));
static cl::opt<std::string> deviceId("device", cl::init("h100"),
                                     cl::desc("Device id (devices/*.json)"),
                                     cl::cat(category));
static cl::list<std::string>
    overrides("set",
              cl::desc("Replace a number of the device file: KEY=VALUE "
                       "(e.g. barrier_latency_ns=40; repeatable)"),
              cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "tessel-simulate: " << message << "\n";
  return 1;
}

/// The device with the --set overrides applied through its JSON form, so
/// that they are checked like a device file.
static llvm::Expected<DeviceDescription> loadDevice() {
  llvm::Expected<DeviceDescription> device = findDevice(deviceId);
  if (!device || overrides.empty())
    return device;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(device->toJSON());
  if (!json)
    return json.takeError();
  llvm::json::Object &object = *json->getAsObject();
  for (StringRef entry : overrides) {
    auto [key, text] = entry.split('=');
    double value;
    if (key.empty() || text.getAsDouble(value))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--set=" + entry.str() +
                                         ": expected KEY=NUMBER");
    object[key] = value;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << *json;
  return DeviceDescription::parse(text, "--set");
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tessel-simulate: time recorded kernels (candidates in the queue's "
      "encoding, one a line) on the simulated GPU\n");

  llvm::Expected<DeviceDescription> device = loadDevice();
  if (!device)
    return fail(llvm::toString(device.takeError()));
  SimulatedMeasurer simulator(*device, /*seed=*/1, /*noiseStddev=*/0);

  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!buffer)
    return fail("cannot read " + inputFile + ": " +
                buffer.getError().message());
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  StringRef rest = (*buffer)->getBuffer();
  int lineNumber = 0;
  while (!rest.empty()) {
    auto [line, next] = rest.split('\n');
    rest = next;
    ++lineNumber;
    if (line.trim().empty())
      continue;
    llvm::Expected<MeasureCandidate> candidate =
        decodeCandidate(line, &context);
    if (!candidate)
      return fail(inputFile + ":" + llvm::Twine(lineNumber) + ": " +
                  llvm::toString(candidate.takeError()));
    SimulatedEstimate e =
        candidate->plan ? simulator.estimatePlan(*candidate->plan)
                        : simulator.estimate(*candidate);
    llvm::json::Object out{
        {"key", candidate->key},
        {"status", stringifyMeasureStatus(e.status).str()},
    };
    if (e.status == MeasureStatus::Ok) {
      out["simulated_us"] = e.totalUs;
      out["bound"] = e.bound;
      out["waves"] = e.waves.waves;
      // One wave's time in each unit (plans: summed over their waves).
      out["compute_us"] = e.computeUs;
      out["dram_us"] = e.dramUs;
      out["l2_us"] = e.l2Us;
      out["shared_us"] = e.sharedUs;
      out["latency_us"] = e.latencyUs;
      out["blocks_per_sm"] = e.occupancy.blocksPerSm;
    } else {
      out["message"] = e.message;
    }
    llvm::outs() << llvm::json::Value(std::move(out)) << "\n";
  }
  return 0;
}
