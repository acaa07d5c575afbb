//===- FasorStrategy.cpp - Fasor as a tuning strategy ---------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/FasorStrategy.h"
#include "tessel/Tuning/CostModel/CostModelRegistry.h"
#include "tessel/Tuning/Features/FeatureExtractor.h"
#include "tessel/Tuning/Strategies/Eto/StoredWorkloads.h"
#include "tessel/Tuning/Strategies/Eto/TopKStrategy.h"
#include "tessel/Tuning/Strategies/Fasor/Actions.h"
#include "tessel/Tuning/Strategies/Fasor/BoundScores.h"
#include "tessel/Tuning/Strategies/Fasor/DqnAgent.h"
#include "tessel/Tuning/Strategies/Fasor/Reward.h"
#include "tessel/Tuning/Strategies/Fasor/ScheduleTokens.h"
#include "tessel/Tuning/Strategies/Fasor/Sensitivity.h"
#include "tessel/Tuning/Strategies/Fasor/StartPoints.h"
#include "tessel/Tuning/Strategies/Fasor/TransformerCostModel.h"
#include "tessel/Tuning/Tuner/AnalyticCandidate.h"
#include "tessel/Tuning/Tuner/SearchDriver.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

namespace {

struct FasorStrategyOptions : ComponentOptions {
  Option<std::string> model{
      *this, "model", "",
      "Pretrained cost model (tessel-fasor-pretrain); empty: a fresh model "
      "trained on the run's measurements (the without-transfer ablation)"};
  Option<std::string> sensitivity{
      *this, "sensitivity", "",
      "Sensitivity table (tessel-fasor-pretrain --sensitivity); empty: "
      "every primitive equally sensitive (Tab. 1's order)"};
  Option<std::string> mode{*this,
                           "mode",
                           "efficiency",
                           "efficiency: one DQN step per round; quality: "
                           "`steps` steps per round",
                           {},
                           {"efficiency", "quality"}};
  Option<int> np{*this,
                 "np",
                 7,
                 "Primitives tuned (the rest keep the start "
                 "point's values)",
                 {5, 8}};
  Option<bool> randomNp{*this, "random-np", false,
                        "Draw the n_p primitives at random (ablation)"};
  Option<int> candidates{*this,
                         "candidates",
                         64,
                         "Candidates the cost model ranks per round",
                         {1, std::nullopt}};
  Option<int> steps{*this,
                    "steps",
                    8,
                    "quality mode: DQN steps per round",
                    {1, std::nullopt}};
  Option<bool> roofline{*this, "roofline", true,
                        "The reward's roofline term (false: the wo_R "
                        "ablation)"};
  Option<int> trainEpochs{*this,
                          "train-epochs",
                          4,
                          "Epochs of online training of a fresh model per "
                          "round",
                          {1, std::nullopt}};
  Option<bool> startPoints{
      *this, "start-points", true,
      "Start from the best schedule of the same or a similar task (the "
      "records database and the run's tuned tasks); false: the default "
      "schedule (the wo_S ablation)"};
  Option<double> tau{*this,
                     "tau",
                     0.6,
                     "Least Spearman similarity of a similar task's "
                     "arguments",
                     {-1.0, 1.0}};
  Option<std::string> explorer{*this,
                               "explorer",
                               "dqn",
                               "dqn: the DQN orders and takes the moves; sa: "
                               "simulated annealing on the cost model "
                               "(ablation)",
                               {},
                               {"dqn", "sa"}};
  Option<std::string> costModel{*this,
                                "cost-model",
                                "transformer",
                                "transformer: the Transformer (model=); "
                                "xgboost: XGBoost on Ansor's features, trained "
                                "on the run's measurements (ablation)",
                                {},
                                {"transformer", "xgboost"}};
  Option<std::string> dqn{*this, "dqn", "",
                          "Pretrained DQN (save-dqn= of an earlier run); "
                          "empty: a fresh one"};
  Option<int> sampledStarts{
      *this,
      "sampled-starts",
      0,
      "Without a start point, start a task from the cost model's best of "
      "this many uniform samples instead of its default schedule (0: the "
      "default schedule, as the paper)",
      {0, std::nullopt}};
  Option<int> pickRounds{*this,
                         "pick-rounds",
                         64,
                         "Rounds a task gets each time the task scheduler "
                         "picks it",
                         {1, std::nullopt}};
  Option<std::string> saveDqn{*this, "save-dqn", "",
                              "Write the DQN here when the run ends (its "
                              "offline pretraining)"};
};

/// What a proposed candidate came from: the DQN transition to complete
/// when its measurement arrives.
struct Origin {
  Features state;
  Features action;
  double parentLatencyUs = 0;
};

/// XGBoost instead of the Transformer (the Fasor_XGB ablation): Ansor's
/// features, trained on the run's measurements, throughputs normalized per
/// task as Ansor does.
struct XgboostRanker {
  std::unique_ptr<FeatureExtractor> features;
  std::unique_ptr<CostModel> model;
  std::vector<FeatureVector> inputs;
  std::vector<double> throughputs;
  std::vector<unsigned> taskIds;
  llvm::DenseMap<const TuningTask *, unsigned> taskNumbers;
  /// Samples at the last training; none trained yet when 0.
  size_t trainedOn = 0;
};

class FasorStrategy : public SearchStrategy {
public:
  FasorStrategy(const FasorStrategyOptions &options, DeviceDescription device,
                TransformerCostModel model, bool freshModel,
                std::optional<XgboostRanker> xgboost, SensitivityTable table,
                DqnAgent agent, uint64_t seed)
      : device(std::move(device)), model(std::move(model)),
        freshModel(freshModel), xgboost(std::move(xgboost)),
        table(std::move(table)), agent(std::move(agent)), rng(seed) {
    modeName = options.mode.getValue();
    np = options.np;
    randomNp = options.randomNp;
    candidateCount = options.candidates;
    stepsPerRound = modeName == "quality" ? options.steps.getValue() : 1;
    trainEpochs = options.trainEpochs;
    weights = modeName == "quality" ? RewardWeights::highQuality()
                                    : RewardWeights::highEfficiency();
    if (!options.roofline)
      weights = weights.withoutRoofline();
    useStartPoints = options.startPoints;
    tau = options.tau;
    annealing = options.explorer.getValue() == "sa";
    saveDqnPath = options.saveDqn.getValue();
    sampledStarts = options.sampledStarts;
  }

  std::string name() const override { return "fasor"; }

  std::vector<Candidate> propose(TaskSearchState &state, int count) override;
  llvm::Error observe(TaskSearchState &state,
                      llvm::ArrayRef<Trial> trials) override;

  /// Whether start points are looked up (the driver fills them only then).
  bool usesStartPoints() const { return useStartPoints; }
  /// The target whose start points are stored and looked up.
  void setTarget(llvm::StringRef name) { target = name.str(); }
  /// Adds a start point of a task tuned before this run.
  void addStoredStartPoint(const TuningTask &task, const ProgramRef &program);
  /// Work done after the run: writes the DQN (save-dqn=); a line for the
  /// user on the start points and wide moves used.
  llvm::Error finish(TuningSession &session);

private:
  /// The candidate's tokens (none when it cannot be encoded).
  std::optional<Tokens> encode(const TaskSearchState &state,
                               const Candidate &candidate) const;
  /// The model's prediction for one encoded schedule, or `fallback`.
  Prediction predictOne(const Tokens &tokens, Prediction fallback) const;
  /// The model's predictions for `candidates` (nullopt entries for those it
  /// cannot encode).
  std::vector<std::optional<Prediction>>
  predict(const TaskSearchState &state,
          llvm::ArrayRef<Candidate> candidates) const;
  /// MS and CS of a measured schedule: the Transformer's prediction, or
  /// with XGBoost (which predicts neither) the labels of its measured time.
  Prediction getScores(const TaskSearchState &state, const Candidate &candidate,
                       const std::optional<Tokens> &tokens, double latencyUs);
  /// Predicted costs of `pool` (lower is better; infinity where unknown).
  std::vector<double> rankPool(const TaskSearchState &state,
                               llvm::ArrayRef<Candidate> pool);
  /// The primitives tuned for a start with `prediction`.
  std::vector<Primitive> choosePrimitives(const Prediction &prediction);
  /// The unmeasured schedule of the start-point database for the task, if
  /// any: a stored schedule of the same task, else the best schedule of
  /// the most similar task moved to its extents (adaptConfig).
  std::optional<Candidate> getStartPointCandidate(TaskSearchState &state);
  const StartPointKey &getKey(const TuningTask &task);
  /// Records a measured schedule as a start point of its task.
  void addStartPoint(const TaskSearchState &state, const Trial &trial);
  /// Adds a measured schedule to the XGBoost ablation's training set and
  /// retrains every 8 samples.
  llvm::Error trainXgboost(const TaskSearchState &state, const Trial &trial);

  DeviceDescription device;
  TransformerCostModel model;
  bool freshModel;
  std::optional<XgboostRanker> xgboost;
  SensitivityTable table;
  DqnAgent agent;
  std::mt19937 rng;
  std::string modeName;
  int np, candidateCount, stepsPerRound, trainEpochs;
  bool randomNp;
  bool annealing;
  RewardWeights weights;
  /// Rounds so far, for the reward's iteration term.
  int64_t iteration = 0;
  /// Rounds per task, for the annealing temperature.
  llvm::DenseMap<const TuningTask *, int64_t> taskRounds;
  /// Per proposed candidate (by id), its DQN transition.
  llvm::DenseMap<std::pair<Attribute, Attribute>, Origin> origins;
  /// Measured schedules, for the fresh model's online training.
  std::vector<Sample> measured;

  bool useStartPoints;
  double tau;
  std::string target;
  StartPointDatabase startPoints;
  llvm::DenseMap<const TuningTask *, StartPointKey> keys;
  std::string saveDqnPath;
  /// What the run used, for the closing line.
  int64_t exactStarts = 0, similarStarts = 0, modelStarts = 0, wideRounds = 0;
  int sampledStarts = 0;
};

} // namespace

/// The DQN's state: a schedule's tokens, flattened to a fixed width.
static Features flatten(const Tokens &tokens) {
  Features flat;
  for (const std::vector<float> &token : tokens)
    flat.insert(flat.end(), token.begin(), token.end());
  flat.resize(kTokensPerSchedule * kTokenWidth, 0);
  return flat;
}

std::optional<Tokens>
FasorStrategy::encode(const TaskSearchState &state,
                      const Candidate &candidate) const {
  llvm::Expected<Tokens> tokens =
      encodeSchedule(state.spaces[candidate.space].getOp(), state.consumers,
                     candidate.sketch, candidate.config, device);
  if (!tokens) {
    llvm::consumeError(tokens.takeError());
    return std::nullopt;
  }
  return std::move(*tokens);
}

Prediction FasorStrategy::predictOne(const Tokens &tokens,
                                     Prediction fallback) const {
  llvm::Expected<std::vector<Prediction>> predictions =
      model.predict(llvm::ArrayRef<Tokens>(tokens));
  if (!predictions) {
    llvm::consumeError(predictions.takeError());
    return fallback;
  }
  return predictions->front();
}

std::vector<std::optional<Prediction>>
FasorStrategy::predict(const TaskSearchState &state,
                       llvm::ArrayRef<Candidate> candidates) const {
  std::vector<std::optional<Prediction>> result(candidates.size());
  std::vector<Tokens> schedules;
  std::vector<size_t> where;
  for (auto [index, candidate] : llvm::enumerate(candidates)) {
    if (std::optional<Tokens> tokens = encode(state, candidate)) {
      schedules.push_back(std::move(*tokens));
      where.push_back(index);
    }
  }
  llvm::Expected<std::vector<Prediction>> predictions =
      model.predict(schedules);
  if (!predictions) {
    llvm::consumeError(predictions.takeError());
    return result;
  }
  for (auto [index, prediction] : llvm::zip(where, *predictions))
    result[index] = prediction;
  return result;
}

std::vector<Primitive>
FasorStrategy::choosePrimitives(const Prediction &prediction) {
  llvm::Expected<std::vector<Primitive>> chosen =
      randomNp ? selectRandomPrimitives(np, rng)
               : selectPrimitives(table,
                                  classifyBottleneck(prediction.memoryBound,
                                                     prediction.computeBound),
                                  np);
  if (!chosen) {
    llvm::consumeError(chosen.takeError());
    return {};
  }
  return *chosen;
}

/// `attribute` as the records database prints it.
static std::string print(Attribute attribute) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << attribute;
  return text;
}

const StartPointKey &FasorStrategy::getKey(const TuningTask &task) {
  auto found = keys.find(&task);
  if (found == keys.end())
    found = keys.insert({&task, getStartPointKey(task, target)}).first;
  return found->second;
}

void FasorStrategy::addStoredStartPoint(const TuningTask &task,
                                        const ProgramRef &program) {
  startPoints.insert({getStartPointKey(task, target), print(program.sketch),
                      print(program.config), program.medianUs});
}

void FasorStrategy::addStartPoint(const TaskSearchState &state,
                                  const Trial &trial) {
  // A start point is a tuned schedule: one faster than the task's first
  // measurement (its default schedule, or the first resumed record).
  if (!useStartPoints || !trial.result.isOk() || state.trials.empty() ||
      !state.trials.front().result.isOk() ||
      !(trial.result.timing.medianUs <
        state.trials.front().result.timing.medianUs))
    return;
  startPoints.insert({getKey(*state.task), print(trial.candidate.sketch),
                      print(trial.candidate.config),
                      trial.result.timing.medianUs});
}

std::optional<Candidate>
FasorStrategy::getStartPointCandidate(TaskSearchState &state) {
  if (!useStartPoints || state.spaces.empty())
    return std::nullopt;
  MLIRContext *context = state.task->getTargetOp()->getContext();
  // The stored schedule as a candidate of this task: as it is for the same
  // task, moved to the task's extents for a similar one.
  auto asCandidate = [&](const StartPoint &point,
                         bool adapt) -> std::optional<Candidate> {
    auto sketch = llvm::dyn_cast_if_present<SketchAttr>(
        parseAttribute(point.sketch, context));
    auto config = llvm::dyn_cast_if_present<ConfigAttr>(
        parseAttribute(point.config, context));
    if (!sketch || !config)
      return std::nullopt;
    std::optional<unsigned> space = findMatchingSpace(state, sketch);
    if (!space)
      return std::nullopt;
    const SearchSpace &matched = state.spaces[*space];
    std::optional<ConfigAttr> moved = config;
    if (adapt || failed(matched.check(config)))
      moved = adaptConfig(matched, config);
    if (!moved)
      return std::nullopt;
    Candidate candidate{*space, matched.getSketch(), *moved};
    if (state.seen.contains(candidate.getId()))
      return std::nullopt;
    return candidate;
  };
  const StartPointKey &key = getKey(*state.task);
  StartPointDatabase::Lookup found = startPoints.lookup(key, tau);
  if (found.match == StartPointDatabase::Match::Exact)
    if (std::optional<Candidate> candidate =
            asCandidate(*found.point, /*adapt=*/false)) {
      ++exactStarts;
      return candidate;
    }
  found = startPoints.lookupSimilar(key, tau);
  if (found.match != StartPointDatabase::Match::Similar)
    return std::nullopt;
  std::optional<Candidate> candidate = asCandidate(*found.point, true);
  if (candidate)
    ++similarStarts;
  return candidate;
}

Prediction FasorStrategy::getScores(const TaskSearchState &state,
                                    const Candidate &candidate,
                                    const std::optional<Tokens> &tokens,
                                    double latencyUs) {
  if (!xgboost)
    return tokens ? predictOne(*tokens, Prediction{latencyUs, 0, 0})
                  : Prediction{latencyUs, 0, 0};
  FailureOr<MeasureCandidate> analytic =
      buildAnalyticCandidate(state, candidate);
  if (failed(analytic))
    return Prediction{latencyUs, 0, 0};
  BoundScores scores = getBoundScores(analytic->facts, latencyUs, device);
  return Prediction{latencyUs, scores.memoryBound, scores.computeBound};
}

std::vector<double> FasorStrategy::rankPool(const TaskSearchState &state,
                                            llvm::ArrayRef<Candidate> pool) {
  constexpr double kUnknown = std::numeric_limits<double>::infinity();
  std::vector<double> costs(pool.size(), kUnknown);
  if (!xgboost) {
    std::vector<std::optional<Prediction>> predictions = predict(state, pool);
    for (auto [cost, prediction] : llvm::zip_equal(costs, predictions))
      if (prediction)
        cost = prediction->latencyUs;
    return costs;
  }
  // Untrained, XGBoost has no order: the explorer's stands.
  if (xgboost->trainedOn == 0) {
    for (size_t i = 0; i < costs.size(); ++i)
      costs[i] = static_cast<double>(i);
    return costs;
  }
  std::vector<FeatureVector> inputs;
  std::vector<size_t> where;
  for (auto [index, candidate] : llvm::enumerate(pool)) {
    FailureOr<std::vector<float>> features = xgboost->features->extract(
        state.spaces[candidate.space].getOp(), state.consumers,
        candidate.sketch, candidate.config, device);
    if (succeeded(features)) {
      inputs.push_back(std::move(*features));
      where.push_back(index);
    }
  }
  llvm::Expected<std::vector<double>> scores = xgboost->model->predict(inputs);
  if (!scores) {
    llvm::consumeError(scores.takeError());
    return costs;
  }
  // Scores are normalized throughputs (higher is better).
  for (auto [index, score] : llvm::zip_equal(where, *scores))
    costs[index] = -score;
  return costs;
}

llvm::Error FasorStrategy::trainXgboost(const TaskSearchState &state,
                                        const Trial &trial) {
  FailureOr<std::vector<float>> features = xgboost->features->extract(
      state.spaces[trial.candidate.space].getOp(), state.consumers,
      trial.candidate.sketch, trial.candidate.config, device);
  if (failed(features))
    return llvm::Error::success();
  auto number = xgboost->taskNumbers.insert(
      {state.task, static_cast<unsigned>(xgboost->taskNumbers.size())});
  xgboost->inputs.push_back(std::move(*features));
  xgboost->throughputs.push_back(trial.result.isOk() &&
                                         trial.result.timing.medianUs > 0
                                     ? 1.0 / trial.result.timing.medianUs
                                     : 0.0);
  xgboost->taskIds.push_back(number.first->second);
  if (xgboost->inputs.size() < xgboost->trainedOn + 8)
    return llvm::Error::success();
  xgboost->trainedOn = xgboost->inputs.size();
  return xgboost->model->train(
      xgboost->inputs,
      normalizeThroughputs(xgboost->throughputs, xgboost->taskIds));
}

std::vector<Candidate> FasorStrategy::propose(TaskSearchState &state,
                                              int count) {
  ++iteration;
  int64_t taskRound = ++taskRounds[state.task];
  std::vector<Candidate> pool;
  llvm::DenseSet<std::pair<Attribute, Attribute>> inPool;
  // A start point of the database not measured yet is measured first.
  std::optional<Candidate> startPoint = getStartPointCandidate(state);
  // Without one, a task's first round may start from the cost model's pick
  // among uniform samples instead of the default schedule.
  if (!startPoint && taskRound == 1 && sampledStarts > 0) {
    std::vector<Candidate> samples = sampleUnseen(state, sampledStarts);
    std::vector<double> costs = rankPool(state, samples);
    auto best = std::min_element(costs.begin(), costs.end());
    if (best != costs.end() && std::isfinite(*best)) {
      startPoint = samples[best - costs.begin()];
      ++modelStarts;
    }
    // The others were not measured: they may be proposed later.
    for (const Candidate &sample : samples)
      if (!startPoint || sample.getId() != startPoint->getId())
        state.seen.erase(sample.getId());
  }
  if (startPoint) {
    inPool.insert(startPoint->getId());
    if (count == 1)
      return {*startPoint};
  }

  // The walk starts from the task's best schedule so far (its default
  // schedule is measured before the first round; resumed records count).
  const Trial *best = state.getBest();
  if (!best) {
    std::vector<Candidate> sampled = sampleUnseen(state, count);
    if (startPoint) {
      sampled.insert(sampled.begin(), *startPoint);
      sampled.resize(std::min<size_t>(sampled.size(), count));
    }
    return sampled;
  }
  Candidate current = best->candidate;
  double currentLatency = best->result.timing.medianUs;
  double currentCost = std::numeric_limits<double>::quiet_NaN();

  for (int step = 0;
       step < stepsPerRound && static_cast<int>(pool.size()) < candidateCount;
       ++step) {
    const SearchSpace &space = state.spaces[current.space];
    std::optional<Tokens> tokens = encode(state, current);
    if (!tokens)
      break;
    Features features = flatten(*tokens);
    Prediction prediction = getScores(state, current, tokens, currentLatency);
    std::vector<Primitive> primitives = choosePrimitives(prediction);
    // The children: every applicable action's config; the wider moves
    // when every factor-2 child has been measured.
    std::vector<std::pair<Action, Candidate>> children;
    auto addChildren = [&](llvm::ArrayRef<Action> actions) {
      for (const Action &action : actions)
        if (std::optional<ConfigAttr> moved =
                applyAction(space, current.config, action)) {
          Candidate child = current;
          child.config = *moved;
          children.push_back({action, child});
        }
    };
    addChildren(enumerateActions(space, primitives));
    if (llvm::all_of(children, [&](const auto &child) {
          return state.seen.contains(child.second.getId());
        })) {
      addChildren(enumerateWideActions(space, primitives));
      if (step == 0)
        ++wideRounds;
    }
    if (children.empty())
      break;
    std::vector<Features> encodings;
    for (auto &[action, child] : children)
      encodings.push_back(encodeAction(action));
    // The explorer's order of the children: by Q, or at random for
    // annealing.
    std::vector<size_t> order(children.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    if (annealing) {
      std::shuffle(order.begin(), order.end(), rng);
    } else {
      llvm::Expected<std::vector<double>> q =
          agent.getQValues(features, encodings);
      if (!q) {
        llvm::consumeError(q.takeError());
        break;
      }
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t a, size_t b) { return (*q)[a] > (*q)[b]; });
    }
    for (size_t i : order) {
      const Candidate &child = children[i].second;
      if (state.seen.contains(child.getId()) ||
          !inPool.insert(child.getId()).second)
        continue;
      origins[child.getId()] = {features, encodings[i], currentLatency};
      pool.push_back(child);
      if (static_cast<int>(pool.size()) >= candidateCount)
        break;
    }
    if (step + 1 == stepsPerRound)
      break;
    // The explorer's step: the next start in quality mode.
    if (annealing) {
      // Metropolis on the cost model's prediction, temperature 0.1 x
      // 0.95^round (relative latency).
      size_t pick = order.front();
      std::vector<double> costs =
          rankPool(state, {current, children[pick].second});
      if (std::isnan(currentCost))
        currentCost = costs[0];
      double worse = (costs[1] - currentCost) / std::abs(currentCost);
      double temperature = 0.1 * std::pow(0.95, taskRound);
      std::uniform_real_distribution<double> uniform(0, 1);
      if (std::isfinite(costs[1]) &&
          (worse <= 0 || uniform(rng) < std::exp(-worse / temperature))) {
        current = children[pick].second;
        currentCost = costs[1];
      }
      continue;
    }
    llvm::Expected<size_t> taken =
        agent.selectAction(features, encodings, /*explore=*/true);
    if (!taken) {
      llvm::consumeError(taken.takeError());
      break;
    }
    current = children[*taken].second;
  }
  // Too few moves (a small space): fill with random schedules.
  int wanted = count - (startPoint ? 1 : 0);
  if (static_cast<int>(pool.size()) < wanted)
    for (const Candidate &extra :
         sampleUnseen(state, wanted - static_cast<int>(pool.size())))
      if (inPool.insert(extra.getId()).second)
        pool.push_back(extra);

  // The cost model ranks the pool; the best are measured.
  std::vector<double> costs = rankPool(state, pool);
  std::vector<size_t> order(pool.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return costs[a] < costs[b]; });
  std::vector<Candidate> proposed;
  if (startPoint)
    proposed.push_back(*startPoint);
  for (size_t i : order) {
    if (static_cast<int>(proposed.size()) >= count)
      break;
    proposed.push_back(pool[i]);
  }
  return proposed;
}

llvm::Error FasorStrategy::observe(TaskSearchState &state,
                                   llvm::ArrayRef<Trial> trials) {
  for (const Trial &trial : trials) {
    addStartPoint(state, trial);
    if (xgboost)
      if (llvm::Error error = trainXgboost(state, trial))
        return error;
    auto origin = origins.find(trial.candidate.getId());
    if (annealing || origin == origins.end() || !trial.result.isOk())
      continue;
    double latency = trial.result.timing.medianUs;
    std::optional<Tokens> tokens = encode(state, trial.candidate);
    Prediction scores = getScores(state, trial.candidate, tokens, latency);
    double reward =
        computeReward(origin->second.parentLatencyUs, latency,
                      scores.computeBound, scores.memoryBound, iteration,
                      std::max<int64_t>(iteration, 64), weights);
    Transition transition;
    transition.state = origin->second.state;
    transition.action = origin->second.action;
    transition.reward = reward;
    if (tokens) {
      transition.nextState = flatten(*tokens);
      const SearchSpace &space = state.spaces[trial.candidate.space];
      for (const Action &action :
           enumerateActions(space, choosePrimitives(scores)))
        if (applyAction(space, trial.candidate.config, action))
          transition.nextActions.push_back(encodeAction(action));
    } else {
      transition.nextState = transition.state;
    }
    if (llvm::Error error = agent.remember(std::move(transition)))
      return error;
    if (freshModel && tokens)
      measured.push_back({std::move(*tokens),
                          {latency, scores.memoryBound, scores.computeBound}});
  }
  if (!annealing)
    for (int i = 0; i < 4; ++i) {
      llvm::Expected<std::optional<double>> loss = agent.trainStep();
      if (!loss)
        return loss.takeError();
    }
  // Without transfer, the model learns from the run's measurements.
  if (freshModel && !xgboost && measured.size() >= 2) {
    TrainOptions training;
    training.epochs = trainEpochs;
    training.batchSize = 16;
    llvm::Expected<std::vector<double>> losses =
        model.train(measured, training);
    if (!losses)
      return losses.takeError();
  }
  return llvm::Error::success();
}

llvm::Error FasorStrategy::finish(TuningSession &session) {
  session.note(llvm::formatv(
      "fasor: {0} start points measured ({1} of the same task, {2} of "
      "similar tasks, {3} the model's pick of samples); {4} rounds took wide "
      "moves",
      exactStarts + similarStarts + modelStarts, exactStarts, similarStarts,
      modelStarts, wideRounds));
  if (saveDqnPath.empty())
    return llvm::Error::success();
  return agent.save(saveDqnPath);
}

namespace {
/// The task scheduler over the fasor strategy, with the start-point
/// database filled from the records database before the first round.
class FasorDriver : public SearchDriver {
public:
  FasorDriver(std::unique_ptr<FasorStrategy> owned, llvm::StringRef scheduler,
              uint64_t seed, int64_t pickRounds)
      : strategy(owned.get()),
        inner(createSchedulerDriver(std::move(owned), scheduler, seed,
                                    pickRounds)) {}

  void observe(TuningSession &session, size_t task,
               llvm::ArrayRef<Trial> trials) override {
    strategy->setTarget(session.getTarget());
    inner->observe(session, task, trials);
  }

  llvm::Error run(TuningSession &session) override {
    strategy->setTarget(session.getTarget());
    if (strategy->usesStartPoints() && session.getNumTasks() > 0) {
      std::vector<const TuningTask *> tasks;
      for (size_t i = 0; i < session.getNumTasks(); ++i)
        tasks.push_back(session.getState(i).task);
      MLIRContext *context = tasks.front()->getTargetOp()->getContext();
      auto stored =
          loadStoredWorkloads(session.getDatabase(), session.getTarget(),
                              session.getRunId(), tasks, context);
      if (!stored)
        return stored.takeError();
      for (const StoredWorkload &workload : *stored)
        strategy->addStoredStartPoint(workload.task, workload.programs.front());
    }
    if (llvm::Error error = inner->run(session))
      return error;
    return strategy->finish(session);
  }

private:
  FasorStrategy *strategy;
  std::unique_ptr<SearchDriver> inner;
};
} // namespace

/// The fasor strategy of `options`.
static llvm::Expected<std::unique_ptr<FasorStrategy>>
createFasorStrategy(const FasorStrategyOptions &options,
                    StrategyEnvironment &environment) {
  // Each inference is a batch of at most `candidates` short sequences:
  // libtorch's worker threads cost more than they give (BERT-base, 832
  // trials: 7 s of search on one thread, 20 s on the dev VM's two).
  setTorchThreads(1);
  bool fresh = options.model.getValue().empty();
  bool useXgboost = options.costModel.getValue() == "xgboost";
  if (useXgboost && !fresh)
    return llvm::createStringError(
        "fasor: model= is a Transformer; cost-model=xgboost trains its own");
  llvm::Expected<TransformerCostModel> model =
      fresh ? TransformerCostModel::create(kTokenWidth, {}, environment.seed)
            : TransformerCostModel::load(options.model.getValue());
  if (!model)
    return model.takeError();
  std::optional<XgboostRanker> xgboost;
  if (useXgboost) {
    xgboost.emplace();
    auto features = createFeatureExtractor("ansor");
    if (!features)
      return features.takeError();
    CostModelEnvironment modelEnvironment;
    modelEnvironment.seed = environment.seed;
    modelEnvironment.ranking = true;
    auto costModel = createCostModel("xgboost", modelEnvironment);
    if (!costModel)
      return costModel.takeError();
    xgboost->features = std::move(*features);
    xgboost->model = std::move(*costModel);
  }
  SensitivityTable table;
  if (!options.sensitivity.getValue().empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(options.sensitivity.getValue());
    if (!buffer)
      return llvm::createStringError("fasor: cannot read " +
                                     options.sensitivity.getValue() + ": " +
                                     buffer.getError().message());
    llvm::Expected<llvm::json::Value> json =
        llvm::json::parse((*buffer)->getBuffer());
    if (!json)
      return json.takeError();
    llvm::Expected<SensitivityTable> parsed = sensitivityFromJSON(*json);
    if (!parsed)
      return parsed.takeError();
    table = std::move(*parsed);
  }
  DqnOptions dqn;
  dqn.seed = environment.seed;
  llvm::Expected<DqnAgent> agent =
      options.dqn.getValue().empty()
          ? DqnAgent::create(kTokensPerSchedule * kTokenWidth, kActionFeatures,
                             dqn)
          : DqnAgent::load(options.dqn.getValue());
  if (!agent)
    return agent.takeError();
  if (agent->getStateWidth() != kTokensPerSchedule * kTokenWidth ||
      agent->getActionWidth() != kActionFeatures)
    return llvm::createStringError(llvm::formatv(
        "fasor: the DQN {0} reads {1} state and {2} action features; this "
        "Tessel has {3} and {4}",
        options.dqn.getValue(), agent->getStateWidth(), agent->getActionWidth(),
        kTokensPerSchedule * kTokenWidth, kActionFeatures));
  return std::make_unique<FasorStrategy>(options, std::move(environment.device),
                                         std::move(*model), fresh,
                                         std::move(xgboost), std::move(table),
                                         std::move(*agent), environment.seed);
}

StrategyInfo tessel::getFasorStrategyInfo() {
  StrategyInfo info;
  info.name = "fasor";
  info.summary = "Transformer cost model, search-space shrinking and DQN "
                 "exploration from start points (Fasor)";
  info.usesCostModel = false;
  info.defaultMeasuresPerRound = 1;
  info.createOptions = [] { return std::make_unique<FasorStrategyOptions>(); };
  // fasor drives the task scheduler itself (FasorDriver): its start points
  // come from the records database, which a per-task strategy cannot read.
  info.create = [](const ComponentOptions &, StrategyEnvironment)
      -> llvm::Expected<std::unique_ptr<SearchStrategy>> {
    return llvm::createStringError("strategy 'fasor' drives a whole run");
  };
  info.createDriver = [](const ComponentOptions &componentOptions,
                         StrategyEnvironment environment)
      -> llvm::Expected<std::unique_ptr<SearchDriver>> {
    const auto &options =
        static_cast<const FasorStrategyOptions &>(componentOptions);
    auto strategy = createFasorStrategy(options, environment);
    if (!strategy)
      return strategy.takeError();
    return std::make_unique<FasorDriver>(std::move(*strategy),
                                         environment.scheduler,
                                         environment.seed, options.pickRounds);
  };
  return info;
}
