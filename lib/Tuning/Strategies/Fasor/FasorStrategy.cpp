//===- FasorStrategy.cpp - Fasor as a tuning strategy ---------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/FasorStrategy.h"
#include "tessel/Tuning/Strategies/Fasor/Actions.h"
#include "tessel/Tuning/Strategies/Fasor/DqnAgent.h"
#include "tessel/Tuning/Strategies/Fasor/Reward.h"
#include "tessel/Tuning/Strategies/Fasor/ScheduleTokens.h"
#include "tessel/Tuning/Strategies/Fasor/Sensitivity.h"
#include "tessel/Tuning/Strategies/Fasor/TransformerCostModel.h"

#include "llvm/ADT/DenseMap.h"
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
};

/// What a proposed candidate came from: the DQN transition to complete
/// when its measurement arrives.
struct Origin {
  Features state;
  Features action;
  double parentLatencyUs = 0;
};

class FasorStrategy : public SearchStrategy {
public:
  FasorStrategy(const FasorStrategyOptions &options, DeviceDescription device,
                TransformerCostModel model, bool freshModel,
                SensitivityTable table, DqnAgent agent, uint64_t seed)
      : device(std::move(device)), model(std::move(model)),
        freshModel(freshModel), table(std::move(table)),
        agent(std::move(agent)), rng(seed) {
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
  }

  std::string name() const override { return "fasor"; }

  std::vector<Candidate> propose(TaskSearchState &state, int count) override;
  llvm::Error observe(TaskSearchState &state,
                      llvm::ArrayRef<Trial> trials) override;

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
  /// The primitives tuned for a start with `prediction`.
  std::vector<Primitive> choosePrimitives(const Prediction &prediction);

  DeviceDescription device;
  TransformerCostModel model;
  bool freshModel;
  SensitivityTable table;
  DqnAgent agent;
  std::mt19937 rng;
  std::string modeName;
  int np, candidateCount, stepsPerRound, trainEpochs;
  bool randomNp;
  RewardWeights weights;
  /// Rounds so far, for the reward's iteration term.
  int64_t iteration = 0;
  /// Per proposed candidate (by id), its DQN transition.
  llvm::DenseMap<std::pair<Attribute, Attribute>, Origin> origins;
  /// Measured schedules, for the fresh model's online training.
  std::vector<Sample> measured;
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

std::vector<Candidate> FasorStrategy::propose(TaskSearchState &state,
                                              int count) {
  ++iteration;
  // The start point: the task's best schedule so far (its default schedule
  // is measured before the first round; resumed records count too).
  const Trial *best = state.getBest();
  if (!best)
    return sampleUnseen(state, count);
  Candidate current = best->candidate;
  double currentLatency = best->result.timing.medianUs;

  std::vector<Candidate> pool;
  llvm::DenseSet<std::pair<Attribute, Attribute>> inPool;
  for (int step = 0;
       step < stepsPerRound && static_cast<int>(pool.size()) < candidateCount;
       ++step) {
    const SearchSpace &space = state.spaces[current.space];
    std::optional<Tokens> tokens = encode(state, current);
    if (!tokens)
      break;
    std::optional<Features> features = flatten(*tokens);
    Prediction prediction =
        predictOne(*tokens, Prediction{currentLatency, 0, 0});
    std::vector<Action> actions =
        enumerateActions(space, choosePrimitives(prediction));
    // The children: every applicable action's config, ordered by Q.
    std::vector<std::pair<Action, Candidate>> children;
    for (const Action &action : actions)
      if (std::optional<ConfigAttr> moved =
              applyAction(space, current.config, action)) {
        Candidate child = current;
        child.config = *moved;
        children.push_back({action, child});
      }
    if (children.empty())
      break;
    std::vector<Features> encodings;
    for (auto &[action, child] : children)
      encodings.push_back(encodeAction(action));
    llvm::Expected<std::vector<double>> q =
        agent.getQValues(*features, encodings);
    if (!q) {
      llvm::consumeError(q.takeError());
      break;
    }
    std::vector<size_t> order(children.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return (*q)[a] > (*q)[b]; });
    for (size_t i : order) {
      const Candidate &child = children[i].second;
      if (state.seen.contains(child.getId()) ||
          !inPool.insert(child.getId()).second)
        continue;
      origins[child.getId()] = {*features, encodings[i], currentLatency};
      pool.push_back(child);
      if (static_cast<int>(pool.size()) >= candidateCount)
        break;
    }
    // The DQN's step (epsilon-greedy): the next round's start in quality
    // mode.
    llvm::Expected<size_t> taken =
        agent.selectAction(*features, encodings, /*explore=*/true);
    if (!taken) {
      llvm::consumeError(taken.takeError());
      break;
    }
    current = children[*taken].second;
  }
  // Too few moves (a small space): fill with random schedules.
  if (static_cast<int>(pool.size()) < count)
    for (const Candidate &extra :
         sampleUnseen(state, count - static_cast<int>(pool.size())))
      if (inPool.insert(extra.getId()).second)
        pool.push_back(extra);

  // The cost model ranks the pool; the best `count` are measured.
  std::vector<std::optional<Prediction>> predictions = predict(state, pool);
  std::vector<size_t> order(pool.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  auto latency = [&](size_t i) {
    return predictions[i] ? predictions[i]->latencyUs
                          : std::numeric_limits<double>::infinity();
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return latency(a) < latency(b); });
  std::vector<Candidate> proposed;
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
    auto origin = origins.find(trial.candidate.getId());
    if (origin == origins.end() || !trial.result.isOk())
      continue;
    double latency = trial.result.timing.medianUs;
    std::optional<Tokens> tokens = encode(state, trial.candidate);
    Prediction scores = tokens ? predictOne(*tokens, Prediction{latency, 0, 0})
                               : Prediction{latency, 0, 0};
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
  for (int i = 0; i < 4; ++i) {
    llvm::Expected<std::optional<double>> loss = agent.trainStep();
    if (!loss)
      return loss.takeError();
  }
  // Without transfer, the model learns from the run's measurements.
  if (freshModel && measured.size() >= 2) {
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

StrategyInfo tessel::getFasorStrategyInfo() {
  StrategyInfo info;
  info.name = "fasor";
  info.summary = "Transformer cost model, search-space shrinking and DQN "
                 "exploration from start points (Fasor)";
  info.usesCostModel = false;
  info.defaultMeasuresPerRound = 1;
  info.createOptions = [] { return std::make_unique<FasorStrategyOptions>(); };
  info.create = [](const ComponentOptions &componentOptions,
                   StrategyEnvironment environment)
      -> llvm::Expected<std::unique_ptr<SearchStrategy>> {
    const auto &options =
        static_cast<const FasorStrategyOptions &>(componentOptions);
    bool fresh = options.model.getValue().empty();
    llvm::Expected<TransformerCostModel> model =
        fresh ? TransformerCostModel::create(kTokenWidth, {}, environment.seed)
              : TransformerCostModel::load(options.model.getValue());
    if (!model)
      return model.takeError();
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
    llvm::Expected<DqnAgent> agent = DqnAgent::create(
        kTokensPerSchedule * kTokenWidth, kActionFeatures, dqn);
    if (!agent)
      return agent.takeError();
    return std::make_unique<FasorStrategy>(
        options, std::move(environment.device), std::move(*model), fresh,
        std::move(table), std::move(*agent), environment.seed);
  };
  return info;
}
