//===- tessel-worker.cpp - A measurement worker of the queue --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Measures the items that tuners enqueue (tessel-tune --measure=queue:<db>)
// on this worker's GPU or simulator and writes the results back
// (docs/Queue.md). SIGTERM or SIGINT stops it once the item it holds is
// measured and written (a second one kills it). Exit status: 0 when it
// stopped as asked (--max-items, --max-idle, a signal), 1 on a database or
// measurer error, on malformed items, or when it stopped idle while the
// queue held work for other devices only.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Queue/Worker.h"
#include "tessel/Tuning/StopSignals.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

using namespace mlir::tessel;
namespace cl = llvm::cl;

static cl::OptionCategory category("tessel-worker options");
static cl::opt<std::string>
    database("db",
             cl::desc("Records database holding the queue (file or "
                      "postgresql:// URL)"),
             cl::value_desc("db"), cl::Required, cl::cat(category));
static cl::opt<std::string>
    measure("measure", cl::desc("This worker's measurer: cuda or sim:<device>"),
            cl::init("sim:h100"), cl::cat(category));
static cl::opt<std::string> name("name",
                                 cl::desc("Name in the queue (default "
                                          "<host>:<pid>)"),
                                 cl::cat(category));
static cl::opt<double>
    lease("lease",
          cl::desc("Seconds a claim lasts before the item is handed "
                   "out again"),
          cl::init(300), cl::cat(category));
static cl::opt<double>
    delayMs("delay-ms",
            cl::desc("Milliseconds slept after each measurement (a stand-in "
                     "for GPU time in simulated demos)"),
            cl::init(0), cl::cat(category));
static cl::opt<double> maxIdle("max-idle",
                               cl::desc("Stop after this many seconds without "
                                        "work (0: never)"),
                               cl::init(0), cl::cat(category));
static cl::opt<int64_t> maxItems("max-items",
                                 cl::desc("Stop after this many items (0: "
                                          "never)"),
                                 cl::init(0), cl::cat(category));
static cl::opt<uint64_t> seed("seed",
                              cl::desc("Seed of the simulator's noise "
                                       "outside queue items"),
                              cl::init(0), cl::cat(category));
static cl::opt<bool> quiet("quiet", cl::desc("Print only the summary"),
                           cl::cat(category));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "Tessel measurement worker\n");

  WorkerOptions options;
  options.database = database;
  options.measure = measure;
  options.name = name;
  options.measurer.seed = seed;
  options.leaseSeconds = lease;
  options.delaySeconds = delayMs / 1000;
  options.maxIdleSeconds = maxIdle;
  options.maxItems = maxItems;
  installStopSignalHandlers();
  options.shouldStop = [] { return receivedStopSignal() != 0; };
  if (!quiet)
    options.log = [](llvm::StringRef line) {
      llvm::errs() << "tessel-worker: " << line << "\n";
    };
  llvm::Expected<WorkerSummary> summary = runWorker(options);
  if (!summary) {
    llvm::errs() << "tessel-worker: " << llvm::toString(summary.takeError())
                 << "\n";
    return 1;
  }
  llvm::outs() << llvm::formatv("tessel-worker: {0} measured, {1} malformed, "
                                "{2} dropped (lease lost)\n",
                                summary->measured, summary->malformed,
                                summary->lost);
  llvm::outs().flush();
  if (summary->stopRequested && !quiet)
    llvm::errs() << "tessel-worker: stopped by "
                 << stopSignalName(receivedStopSignal())
                 << " after finishing its last item\n";
  if (!summary->otherTargets.empty()) {
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), "%g", maxIdle.getValue());
    llvm::errs() << llvm::formatv("tessel-worker: no work for {0} in {1} s; "
                                  "the pending work is for {2}\n",
                                  summary->target, seconds,
                                  summary->otherTargets);
    return 1;
  }
  return summary->malformed > 0 ? 1 : 0;
}
