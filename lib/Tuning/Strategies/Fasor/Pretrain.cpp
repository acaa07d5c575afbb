//===- Pretrain.cpp - Offline pretraining of Fasor's cost model -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Pretrain.h"

#include "tessel/Tuning/Strategies/Fasor/ScheduleTokens.h"

#include "llvm/ADT/StringSet.h"

#include <cmath>
#include <random>

using namespace mlir::tessel::fasor;

llvm::Expected<RSquared>
mlir::tessel::fasor::evaluate(const TransformerCostModel &model,
                              llvm::ArrayRef<LabeledSchedule> schedules) {
  if (schedules.size() < 2)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "fasor: R^2 needs at least two schedules");
  std::vector<Tokens> tokens;
  for (const LabeledSchedule &labeled : schedules)
    tokens.push_back(labeled.sample.tokens);
  llvm::Expected<std::vector<Prediction>> predictions = model.predict(tokens);
  if (!predictions)
    return predictions.takeError();
  std::vector<double> latency[2], memory[2], compute[2];
  for (auto [p, labeled] : llvm::zip_equal(*predictions, schedules)) {
    const Prediction &label = labeled.sample.label;
    latency[0].push_back(std::log(p.latencyUs));
    latency[1].push_back(std::log(label.latencyUs));
    memory[0].push_back(p.memoryBound);
    memory[1].push_back(label.memoryBound);
    compute[0].push_back(p.computeBound);
    compute[1].push_back(label.computeBound);
  }
  return RSquared{getRSquared(latency[0], latency[1]),
                  getRSquared(memory[0], memory[1]),
                  getRSquared(compute[0], compute[1])};
}

llvm::Expected<PretrainResult>
mlir::tessel::fasor::pretrain(llvm::ArrayRef<LabeledSchedule> dataset,
                              const PretrainOptions &options) {
  // Distinct tasks in order of appearance, shuffled by the seed.
  std::vector<std::string> keys;
  llvm::StringSet<> known;
  for (const LabeledSchedule &labeled : dataset)
    if (known.insert(labeled.workloadKey).second)
      keys.push_back(labeled.workloadKey);
  if (keys.size() < 2)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "fasor: pretraining needs schedules of at "
                                   "least two tasks");
  std::mt19937_64 rng(options.seed);
  for (size_t i = keys.size() - 1; i > 0; --i)
    std::swap(keys[i], keys[rng() % (i + 1)]);
  size_t testCount = std::max<size_t>(
      1, static_cast<size_t>(std::lround(options.testFraction * keys.size())));
  testCount = std::min(testCount, keys.size() - 1);
  llvm::StringSet<> testKeys;
  for (size_t i = keys.size() - testCount; i < keys.size(); ++i)
    testKeys.insert(keys[i]);

  std::vector<LabeledSchedule> trainSet, testSet;
  for (const LabeledSchedule &labeled : dataset)
    (testKeys.contains(labeled.workloadKey) ? testSet : trainSet)
        .push_back(labeled);
  std::vector<Sample> samples;
  for (const LabeledSchedule &labeled : trainSet)
    samples.push_back(labeled.sample);

  llvm::Expected<TransformerCostModel> model =
      TransformerCostModel::create(kTokenWidth, options.network, options.seed);
  if (!model)
    return model.takeError();
  TrainOptions training = options.training;
  training.seed = options.seed;
  llvm::Expected<std::vector<double>> losses = model->train(samples, training);
  if (!losses)
    return losses.takeError();
  llvm::Expected<RSquared> train = evaluate(*model, trainSet);
  if (!train)
    return train.takeError();
  llvm::Expected<RSquared> test = evaluate(*model, testSet);
  if (!test)
    return test.takeError();
  return PretrainResult{std::move(*model),
                        static_cast<int64_t>(keys.size() - testCount),
                        static_cast<int64_t>(testCount),
                        static_cast<int64_t>(trainSet.size()),
                        static_cast<int64_t>(testSet.size()),
                        *train,
                        *test,
                        std::move(*losses)};
}
