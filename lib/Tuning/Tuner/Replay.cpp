//===- Replay.cpp - Measured times replayed as a measurer -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/Replay.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <limits>
#include <set>

using namespace mlir;
using namespace mlir::tessel;

/// `key`'s value as a number: a JSON number or a string holding one (the
/// dataset's CSV has only strings); std::nullopt when absent or empty.
static std::optional<double> getNumber(const llvm::json::Object &row,
                                       llvm::StringRef key) {
  if (std::optional<double> number = row.getNumber(key))
    return number;
  std::optional<llvm::StringRef> text = row.getString(key);
  double value;
  if (!text || text->trim().empty() || text->trim().getAsDouble(value))
    return std::nullopt;
  return value;
}

static std::string getText(const llvm::json::Object &row, llvm::StringRef key) {
  return row.getString(key).value_or("").str();
}

namespace {
/// The rows of one schedule, merged into one result.
struct MergedRows {
  MeasureResult first;
  std::vector<double> okMedians;
  double minUs = std::numeric_limits<double>::infinity();
  double maxUs = 0;
  int repeats = 0;
  std::optional<MeasureResult> firstOk;
};
} // namespace

llvm::Expected<std::shared_ptr<ReplayDataset>>
ReplayDataset::load(llvm::StringRef path, MLIRContext *context) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError("cannot read the replay dataset '" +
                                   path.str() +
                                   "': " + buffer.getError().message());
  auto dataset = std::make_shared<ReplayDataset>();
  std::vector<MergedRows> merged;
  std::set<std::string> dates;
  llvm::SmallVector<llvm::StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  auto fail = [&](size_t line, const llvm::Twine &message) {
    return llvm::createStringError(path.str() + ":" + std::to_string(line) +
                                   ": " + message.str());
  };
  size_t rows = 0;
  for (auto [lineIndex, line] : llvm::enumerate(lines)) {
    size_t lineNumber = lineIndex + 1;
    if (line.trim().empty())
      continue;
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(line);
    if (!value)
      return fail(lineNumber,
                  "not a JSON object: " + llvm::toString(value.takeError()));
    const llvm::json::Object *row = value->getAsObject();
    if (!row)
      return fail(lineNumber, "not a JSON object");
    ++rows;
    // One GPU, one compiler, one barrier placement: times of others are of
    // other kernels.
    for (auto [key, kept] : {std::pair<llvm::StringRef, std::string *>{
                                 "device", &dataset->deviceName},
                             {"codegen", &dataset->codegen},
                             {"barriers", &dataset->barriers}}) {
      std::string text = getText(*row, key);
      if (rows == 1) {
        if (text.empty())
          return fail(lineNumber, "the row has no '" + key + "'");
        *kept = text;
      } else if (text != *kept) {
        return fail(lineNumber,
                    "the rows mix " + key + " '" + *kept + "' and '" + text +
                        "': replay one group of the measured dataset "
                        "(scripts/replay-dataset selects one)");
      }
    }
    if (std::string date = getText(*row, "date"); !date.empty())
      dates.insert(date);
    std::string taskKey = getText(*row, "task_key");
    auto sketch = dyn_cast_or_null<SketchAttr>(
        parseAttribute(getText(*row, "sketch"), context));
    auto config = dyn_cast_or_null<ConfigAttr>(
        parseAttribute(getText(*row, "config"), context));
    std::optional<MeasureStatus> status =
        symbolizeMeasureStatus(getText(*row, "status"));
    std::optional<double> median = getNumber(*row, "median_us");
    if (taskKey.empty() || !sketch || !config || !status ||
        (*status == MeasureStatus::Ok && (!median || *median <= 0))) {
      ++dataset->skippedRows;
      continue;
    }
    TaskRows &task = dataset->byTask[taskKey];
    auto [it, added] = task.index.try_emplace({sketch, config}, merged.size());
    if (added) {
      merged.emplace_back();
      task.configs[sketch].push_back(config);
    }
    MergedRows &schedule = merged[it->second];
    MeasureResult result;
    result.status = *status;
    result.message = getText(*row, "message");
    result.resources.name = "replayed";
    result.resources.registers = getNumber(*row, "registers").value_or(0);
    result.resources.spillStoreBytes =
        getNumber(*row, "spill_bytes").value_or(0);
    result.resources.sharedMemoryBytes =
        getNumber(*row, "shared_bytes").value_or(0);
    if (added)
      schedule.first = result;
    if (*status != MeasureStatus::Ok)
      continue;
    schedule.okMedians.push_back(*median);
    schedule.minUs =
        std::min(schedule.minUs, getNumber(*row, "min_us").value_or(*median));
    schedule.maxUs =
        std::max(schedule.maxUs, getNumber(*row, "max_us").value_or(*median));
    schedule.repeats += getNumber(*row, "repeats").value_or(1);
    if (!schedule.firstOk)
      schedule.firstOk = result;
  }
  if (merged.empty())
    return llvm::createStringError(
        "the replay dataset '" + path.str() + "' has no usable rows (" +
        std::to_string(rows) + " rows, " +
        std::to_string(dataset->skippedRows) +
        " without a task key, a schedule that parses or a status)");
  for (MergedRows &schedule : merged) {
    if (!schedule.firstOk) {
      dataset->results.push_back(schedule.first);
      continue;
    }
    MeasureResult result = *schedule.firstOk;
    std::vector<double> &medians = schedule.okMedians;
    llvm::sort(medians);
    size_t half = medians.size() / 2;
    result.timing.medianUs = medians.size() % 2
                                 ? medians[half]
                                 : (medians[half - 1] + medians[half]) / 2;
    result.timing.minUs = schedule.minUs;
    result.timing.maxUs = schedule.maxUs;
    result.timing.repeats = schedule.repeats;
    dataset->results.push_back(std::move(result));
  }
  dataset->dates = llvm::join(dates, ",");
  return dataset;
}

int64_t ReplayDataset::getIndex(llvm::StringRef workloadKey,
                                const Candidate &candidate) const {
  auto task = byTask.find(workloadKey);
  if (task == byTask.end())
    return -1;
  auto it = task->second.index.find(candidate.getId());
  return it == task->second.index.end() ? -1 : static_cast<int64_t>(it->second);
}

std::vector<ConfigAttr> ReplayDataset::getConfigs(llvm::StringRef workloadKey,
                                                  SketchAttr sketch) const {
  auto task = byTask.find(workloadKey);
  if (task == byTask.end())
    return {};
  auto it = task->second.configs.find(sketch);
  return it == task->second.configs.end() ? std::vector<ConfigAttr>{}
                                          : it->second;
}

std::string ReplayDataset::getTarget(const DeviceDescription &device) const {
  return "replay:" + device.id + "@" + codegen;
}

namespace {
/// The key a replay candidate carries: the index of its result.
constexpr llvm::StringLiteral kReplayKeyPrefix = "replay#";

class ReplayMeasurer : public Measurer {
public:
  ReplayMeasurer(std::shared_ptr<const ReplayDataset> dataset,
                 std::string target)
      : dataset(std::move(dataset)), target(std::move(target)) {}

  std::string name() const override { return target; }
  bool isSimulated() const override { return false; }
  std::vector<MeasureResult>
  measure(llvm::ArrayRef<MeasureCandidate> candidates) override {
    std::vector<MeasureResult> results;
    for (const MeasureCandidate &candidate : candidates) {
      llvm::StringRef key = candidate.key;
      size_t index;
      MeasureResult &result = results.emplace_back();
      if (!key.consume_front(kReplayKeyPrefix) || key.getAsInteger(10, index) ||
          index >= dataset->size()) {
        result.status = MeasureStatus::LaunchError;
        result.message = "not a candidate of the replay builder";
      } else {
        result = dataset->getResult(index);
      }
      result.key = candidate.key;
      result.device = target;
    }
    return results;
  }

private:
  std::shared_ptr<const ReplayDataset> dataset;
  std::string target;
};

class ReplayBuilder : public CandidateBuilder {
public:
  explicit ReplayBuilder(std::shared_ptr<const ReplayDataset> dataset)
      : dataset(std::move(dataset)) {}

  std::vector<BuiltCandidate>
  build(const TaskSearchState &state, llvm::ArrayRef<Candidate> candidates,
        std::shared_ptr<const ReferenceData>) override {
    std::vector<BuiltCandidate> built(candidates.size());
    for (auto [index, candidate] : llvm::enumerate(candidates)) {
      int64_t entry = dataset->getIndex(state.task->workloadKey, candidate);
      if (entry < 0) {
        built[index].error = "not measured in the replayed dataset";
        continue;
      }
      MeasureCandidate m;
      m.key = (kReplayKeyPrefix + llvm::Twine(entry)).str();
      m.planFlops = state.task->flops;
      built[index].candidate = std::move(m);
    }
    return built;
  }
  bool compiles() const override { return false; }

private:
  std::shared_ptr<const ReplayDataset> dataset;
};
} // namespace

std::unique_ptr<Measurer>
tessel::createReplayMeasurer(std::shared_ptr<const ReplayDataset> dataset,
                             const DeviceDescription &device) {
  std::string target = dataset->getTarget(device);
  return std::make_unique<ReplayMeasurer>(std::move(dataset),
                                          std::move(target));
}

std::unique_ptr<CandidateBuilder>
tessel::createReplayBuilder(std::shared_ptr<const ReplayDataset> dataset) {
  return std::make_unique<ReplayBuilder>(std::move(dataset));
}

size_t tessel::restrictToReplayed(TaskSearchState &state,
                                  const ReplayDataset &dataset) {
  size_t members = 0;
  std::vector<SearchSpace> kept;
  for (SearchSpace &space : state.spaces) {
    size_t count = space.restrictTo(
        dataset.getConfigs(state.task->workloadKey, space.getSketch()));
    if (count == 0)
      continue;
    members += count;
    kept.push_back(std::move(space));
  }
  state.spaces = std::move(kept);
  return members;
}
