//===- DgdStrategy.cpp - The `dgd` search strategy (ICS'24) ---------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Dgd/DgdStrategy.h"

#include "llvm/ADT/DenseMap.h"

#include <chrono>

using namespace mlir;
using namespace mlir::tessel;

/// What the strategy keeps of one task.
struct DgdStrategy::TaskData {
  TaskSearchState *state = nullptr;
  unsigned taskId = 0;
  std::unique_ptr<DgdSearch> search;
  std::vector<TileVectorSpace> spaces;
  /// Point ids: every candidate DGD has looked at.
  std::vector<Candidate> points;
  llvm::DenseMap<std::pair<Attribute, Attribute>, unsigned> ids;
  /// Features by point id (empty: not extracted yet).
  std::vector<FeatureVector> featureCache;
  /// Points of the last proposal.
  llvm::DenseSet<unsigned> proposed;

  unsigned intern(const Candidate &candidate) {
    auto [it, inserted] = ids.try_emplace(candidate.getId(), points.size());
    if (inserted) {
      points.push_back(candidate);
      featureCache.emplace_back();
    }
    return it->second;
  }
};

DgdStrategy::DgdStrategy(DgdOptions options, DeviceDescription device,
                         std::unique_ptr<FeatureExtractor> features,
                         std::unique_ptr<CostModel> model, Clock clock)
    : options(std::move(options)), device(std::move(device)),
      features(std::move(features)), model(std::move(model)),
      clock(std::move(clock)) {
  if (!this->clock)
    this->clock = [] {
      return std::chrono::duration<double>(
                 std::chrono::steady_clock::now().time_since_epoch())
          .count();
    };
}

DgdStrategy::~DgdStrategy() = default;

const FeatureVector &DgdStrategy::getFeatures(TaskData &task, unsigned id) {
  FeatureVector &cached = task.featureCache[id];
  if (cached.empty()) {
    const Candidate &c = task.points[id];
    FailureOr<std::vector<float>> f =
        features->extract(task.state->task->getTargetOp(),
                          task.state->consumers, c.sketch, c.config, device);
    cached =
        succeeded(f) ? std::move(*f) : FeatureVector(features->width(), 0.0f);
  }
  return cached;
}

void DgdStrategy::retrain() {
  if (!dirty)
    return;
  dirty = false;
  std::vector<double> targets =
      normalizeThroughputs(trainThroughputs, trainTasks);
  if (std::none_of(targets.begin(), targets.end(),
                   [](double t) { return t > 0; }))
    return;
  if (llvm::Error error = model->train(trainFeatures, targets)) {
    llvm::consumeError(std::move(error));
    return;
  }
  trained = true;
}

DgdStrategy::TaskData &DgdStrategy::getTask(TaskSearchState &state) {
  for (auto &task : tasks)
    if (task->state == &state)
      return *task;
  auto data = std::make_unique<TaskData>();
  TaskData &task = *data;
  task.state = &state;
  task.taskId = tasks.size();
  for (const SearchSpace &space : state.spaces)
    task.spaces.emplace_back(space, options.hopUnroll,
                             options.vectorWidths == "widest");

  DgdHooks hooks;
  hooks.neighbours = [&task](unsigned id, int hops) {
    Candidate c = task.points[id];
    std::vector<unsigned> result;
    if (c.space >= task.spaces.size())
      return result;
    for (ConfigAttr config :
         task.spaces[c.space].getNeighbours(c.config, hops)) {
      Candidate n = c;
      n.config = config;
      result.push_back(task.intern(n));
    }
    return result;
  };
  hooks.predict = [this, &task](ArrayRef<unsigned> ids) {
    std::vector<double> scores(ids.size(), 0.0);
    if (!trained)
      return scores;
    std::vector<FeatureVector> vectors;
    vectors.reserve(ids.size());
    for (unsigned id : ids)
      vectors.push_back(getFeatures(task, id));
    auto predicted = model->predict(vectors);
    if (!predicted) {
      llvm::consumeError(predicted.takeError());
      return scores;
    }
    return *predicted;
  };
  hooks.randomPoint = [&task]() -> std::optional<unsigned> {
    std::vector<Candidate> sample = sampleUnseen(*task.state, 1);
    if (sample.empty())
      return std::nullopt;
    return task.intern(sample.front());
  };
  hooks.retrain = [this] { retrain(); };
  task.search = std::make_unique<DgdSearch>(options, std::move(hooks));
  // What was measured before (the default schedule, resumed records).
  for (const Trial &trial : state.trials)
    task.search->addKnown(task.intern(trial.candidate),
                          trial.result.isOk() ? trial.gflops : 0.0);
  tasks.push_back(std::move(data));
  return task;
}

std::vector<Candidate> DgdStrategy::propose(TaskSearchState &state, int count) {
  if (!startTime)
    startTime = clock();
  TaskData &task = getTask(state);
  if (options.timeLimit > 0 && clock() - *startTime >= options.timeLimit)
    return {};
  std::vector<Candidate> batch;
  task.proposed.clear();
  // DgdSearch knows every measured point of the task: what it asks for is
  // new (random points are already marked seen by sampleUnseen).
  for (unsigned id : task.search->next(count)) {
    const Candidate &c = task.points[id];
    state.seen.insert(c.getId());
    batch.push_back(c);
    task.proposed.insert(id);
  }
  return batch;
}

llvm::Error DgdStrategy::observe(TaskSearchState &state,
                                 ArrayRef<Trial> trials) {
  TaskData &task = getTask(state);
  std::vector<std::pair<unsigned, double>> results;
  bool answers = false;
  for (const Trial &trial : trials) {
    unsigned id = task.intern(trial.candidate);
    double gflops = trial.result.isOk() ? trial.gflops : 0.0;
    trainFeatures.push_back(getFeatures(task, id));
    trainThroughputs.push_back(gflops);
    trainTasks.push_back(task.taskId);
    dirty = true;
    if (task.proposed.contains(id))
      answers = true;
    results.push_back({id, gflops});
  }
  if (answers) {
    task.search->report(results);
    task.proposed.clear();
  } else {
    for (auto [id, gflops] : results)
      task.search->addKnown(id, gflops);
  }
  return llvm::Error::success();
}

const DgdSearch *DgdStrategy::getSearch(const TaskSearchState &state) const {
  for (const auto &task : tasks)
    if (task->state == &state)
      return task->search.get();
  return nullptr;
}

const Candidate *DgdStrategy::getPoint(const TaskSearchState &state,
                                       DgdSearch::PointId id) const {
  for (const auto &task : tasks)
    if (task->state == &state)
      return id < task->points.size() ? &task->points[id] : nullptr;
  return nullptr;
}

namespace {
/// The options of `dgd` (DgdOptions), in the registry's syntax.
struct DgdStrategyOptions : ComponentOptions {
  DgdOptions defaults;
  Option<int> initialSamples{*this,
                             "initial-samples",
                             defaults.initialSamples,
                             "Random samples that seed the model",
                             {0, std::nullopt}};
  Option<int> window{*this,
                     "window",
                     defaults.window,
                     "Candidates measured per window",
                     {1, std::nullopt}};
  Option<double> scoreRatio{*this,
                            "score-ratio",
                            defaults.scoreRatio,
                            "Early stop under this fraction of the top score",
                            {0, std::nullopt}};
  Option<double> measureRatio{
      *this,
      "measure-ratio",
      defaults.measureRatio,
      "Early stop under this fraction of the best measurement",
      {0, std::nullopt}};
  Option<int> maxHops{*this,
                      "max-hops",
                      defaults.maxHops,
                      "Largest hop radius",
                      {1, std::nullopt}};
  Option<std::string> scoreStop{
      *this,
      "score-stop",
      defaults.scoreStop,
      "prefix: measure the window's candidates above the score threshold; "
      "all: stop if any is under it",
      {},
      {"prefix", "all"}};
  Option<std::string> bestMeasured{
      *this,
      "best-measured",
      defaults.bestMeasured,
      "running (best so far) or window (last window's best)",
      {},
      {"running", "window"}};
  Option<std::string> start{
      *this,
      "start",
      defaults.start,
      "random (new random point) or best (best unused measured point) at "
      "each start",
      {},
      {"random", "best"}};
  Option<std::string> retrain{
      *this,
      "retrain",
      defaults.retrain,
      "move (after each move and local optimum) or window",
      {},
      {"move", "window"}};
  Option<int64_t> budget{
      *this,
      "budget",
      defaults.budget,
      "Measurements per task, 0 for no limit beyond the run's trials",
      {0, std::nullopt}};
  Option<bool> initialCount{*this, "initial-count", defaults.initialCount,
                            "The initial samples count toward the budget"};
  Option<int64_t> maxStarts{*this,
                            "max-starts",
                            defaults.maxStarts,
                            "Descents before stopping, 0 for no limit",
                            {0, std::nullopt}};
  Option<double> timeLimit{*this,
                           "time-limit",
                           defaults.timeLimit,
                           "Seconds of search, 0 for no limit",
                           {0, std::nullopt}};
  Option<std::string> vectorWidths{
      *this,
      "vector-widths",
      defaults.vectorWidths,
      "keep (the width hopped from, narrowed to fit) or widest (the widest "
      "that fits) after each hop",
      {},
      {"keep", "widest"}};
  Option<bool> hopUnroll{*this, "hop-unroll", defaults.hopUnroll,
                         "Hop the auto-unroll knob too"};

  DgdOptions get() const {
    DgdOptions o;
    o.initialSamples = initialSamples;
    o.window = window;
    o.scoreRatio = scoreRatio;
    o.measureRatio = measureRatio;
    o.maxHops = maxHops;
    o.scoreStop = scoreStop;
    o.bestMeasured = bestMeasured;
    o.start = start;
    o.retrain = retrain;
    o.budget = budget;
    o.initialCount = initialCount;
    o.maxStarts = maxStarts;
    o.timeLimit = timeLimit;
    o.vectorWidths = vectorWidths;
    o.hopUnroll = hopUnroll;
    return o;
  }
  std::string validate() const override { return get().validate(); }
};
} // namespace

StrategyInfo tessel::getDgdStrategyInfo() {
  StrategyInfo info;
  info.name = "dgd";
  info.summary = "dynamic gradient descent over tile sizes (ICS'24)";
  info.createOptions = [] { return std::make_unique<DgdStrategyOptions>(); };
  info.create = [](const ComponentOptions &options,
                   StrategyEnvironment environment)
      -> llvm::Expected<std::unique_ptr<SearchStrategy>> {
    return std::make_unique<DgdStrategy>(
        static_cast<const DgdStrategyOptions &>(options).get(),
        std::move(environment.device), std::move(environment.features),
        std::move(environment.costModel));
  };
  return info;
}
