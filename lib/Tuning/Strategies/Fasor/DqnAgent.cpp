//===- DqnAgent.cpp - Fasor's deep Q-network explorer ---------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// libtorch reports errors by throwing; this file is compiled with exceptions
// and every public entry point turns them into llvm::Error.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/DqnAgent.h"

#include "llvm/Support/FormatVariadic.h"

#include <torch/torch.h>

#include <deque>
#include <random>

using namespace mlir::tessel::fasor;

namespace {

/// Q(s, a): an MLP over the concatenated state and action features.
struct QNetworkImpl : torch::nn::Module {
  QNetworkImpl(int64_t inputs, int64_t hidden)
      : layers(register_module(
            "layers", torch::nn::Sequential(
                          torch::nn::Linear(inputs, hidden), torch::nn::ReLU(),
                          torch::nn::Linear(hidden, hidden), torch::nn::ReLU(),
                          torch::nn::Linear(hidden, 1)))) {}

  /// [batch, inputs] -> [batch].
  torch::Tensor forward(const torch::Tensor &x) {
    return layers->forward(x).squeeze(-1);
  }

  torch::nn::Sequential layers;
};
TORCH_MODULE(QNetwork);

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

torch::Tensor toTensor(const Features &features) {
  return torch::tensor(
      llvm::ArrayRef<float>(features.data(), features.size()).vec(),
      torch::kFloat);
}

/// [actions.size(), state + action] rows of `state` joined with each action.
torch::Tensor pairs(const Features &state, llvm::ArrayRef<Features> actions) {
  torch::Tensor s = toTensor(state).unsqueeze(0).expand(
      {static_cast<int64_t>(actions.size()), -1});
  std::vector<torch::Tensor> rows;
  for (const Features &action : actions)
    rows.push_back(toTensor(action));
  return torch::cat({s, torch::stack(rows)}, 1);
}

} // namespace

struct DqnAgent::Impl {
  int64_t stateWidth = 0, actionWidth = 0;
  DqnOptions options;
  QNetwork network{nullptr}, target{nullptr};
  std::unique_ptr<torch::optim::Adam> optimizer;
  std::deque<Transition> replay;
  std::mt19937_64 rng;
  int64_t steps = 0;

  void syncTarget() {
    torch::NoGradGuard noGrad;
    auto from = network->parameters();
    auto to = target->parameters();
    for (size_t i = 0; i < from.size(); ++i)
      to[i].copy_(from[i]);
  }

  llvm::Error checkWidths(const Features &state,
                          llvm::ArrayRef<Features> actions) const {
    if (static_cast<int64_t>(state.size()) != stateWidth)
      return makeError(llvm::formatv("fasor dqn: a state has {0} features, "
                                     "not {1}",
                                     state.size(), stateWidth));
    for (const Features &action : actions)
      if (static_cast<int64_t>(action.size()) != actionWidth)
        return makeError(llvm::formatv("fasor dqn: an action has {0} "
                                       "features, not {1}",
                                       action.size(), actionWidth));
    return llvm::Error::success();
  }
};

DqnAgent::DqnAgent(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
DqnAgent::DqnAgent(DqnAgent &&) = default;
DqnAgent &DqnAgent::operator=(DqnAgent &&) = default;
DqnAgent::~DqnAgent() = default;

size_t DqnAgent::getReplaySize() const { return impl->replay.size(); }
int64_t DqnAgent::getStateWidth() const { return impl->stateWidth; }
int64_t DqnAgent::getActionWidth() const { return impl->actionWidth; }
const DqnOptions &DqnAgent::getOptions() const { return impl->options; }

llvm::Expected<DqnAgent> DqnAgent::create(int64_t stateWidth,
                                          int64_t actionWidth,
                                          const DqnOptions &options) {
  if (stateWidth <= 0 || actionWidth <= 0 || options.hidden <= 0)
    return makeError("fasor dqn: state width, action width and hidden units "
                     "must be positive");
  if (options.batchSize <= 0 || options.replayCapacity < options.batchSize ||
      options.targetSyncSteps <= 0)
    return makeError("fasor dqn: the batch must be positive and fit the "
                     "replay buffer, and the target sync interval positive");
  if (!(options.gamma >= 0 && options.gamma < 1) ||
      !(options.epsilon >= 0 && options.epsilon <= 1))
    return makeError("fasor dqn: gamma must be in [0, 1) and epsilon in "
                     "[0, 1]");
  try {
    torch::manual_seed(options.seed);
    auto impl = std::make_unique<Impl>();
    impl->stateWidth = stateWidth;
    impl->actionWidth = actionWidth;
    impl->options = options;
    impl->network = QNetwork(stateWidth + actionWidth, options.hidden);
    impl->target = QNetwork(stateWidth + actionWidth, options.hidden);
    impl->syncTarget();
    impl->optimizer = std::make_unique<torch::optim::Adam>(
        impl->network->parameters(),
        torch::optim::AdamOptions(options.learningRate));
    impl->rng.seed(options.seed);
    return DqnAgent(std::move(impl));
  } catch (const std::exception &e) {
    return makeError(llvm::Twine("fasor dqn: creating the agent: ") + e.what());
  }
}

llvm::Expected<std::vector<double>>
DqnAgent::getQValues(const Features &state,
                     llvm::ArrayRef<Features> actions) const {
  if (llvm::Error error = impl->checkWidths(state, actions))
    return std::move(error);
  if (actions.empty())
    return std::vector<double>();
  try {
    torch::NoGradGuard noGrad;
    torch::Tensor q = impl->network->forward(pairs(state, actions));
    std::vector<double> values(q.size(0));
    for (int64_t i = 0; i < q.size(0); ++i)
      values[i] = q[i].item<double>();
    return values;
  } catch (const std::exception &e) {
    return makeError(llvm::Twine("fasor dqn: ") + e.what());
  }
}

llvm::Expected<size_t> DqnAgent::selectAction(const Features &state,
                                              llvm::ArrayRef<Features> actions,
                                              bool explore) {
  if (actions.empty())
    return makeError("fasor dqn: no action to select");
  if (explore && std::uniform_real_distribution<double>(0, 1)(impl->rng) <
                     impl->options.epsilon)
    return std::uniform_int_distribution<size_t>(0,
                                                 actions.size() - 1)(impl->rng);
  llvm::Expected<std::vector<double>> q = getQValues(state, actions);
  if (!q)
    return q.takeError();
  return static_cast<size_t>(std::max_element(q->begin(), q->end()) -
                             q->begin());
}

llvm::Error DqnAgent::remember(Transition transition) {
  if (llvm::Error error =
          impl->checkWidths(transition.state, {transition.action}))
    return error;
  if (llvm::Error error =
          impl->checkWidths(transition.nextState, transition.nextActions))
    return error;
  impl->replay.push_back(std::move(transition));
  while (static_cast<int64_t>(impl->replay.size()) >
         impl->options.replayCapacity)
    impl->replay.pop_front();
  return llvm::Error::success();
}

llvm::Expected<std::optional<double>> DqnAgent::trainStep() {
  const DqnOptions &options = impl->options;
  if (static_cast<int64_t>(impl->replay.size()) < options.batchSize)
    return std::optional<double>();
  try {
    std::uniform_int_distribution<size_t> pick(0, impl->replay.size() - 1);
    std::vector<torch::Tensor> inputs;
    std::vector<float> targets;
    for (int64_t i = 0; i < options.batchSize; ++i) {
      const Transition &t = impl->replay[pick(impl->rng)];
      double target = t.reward;
      if (!t.nextActions.empty()) {
        torch::NoGradGuard noGrad;
        torch::Tensor next =
            impl->target->forward(pairs(t.nextState, t.nextActions));
        target += options.gamma * next.max().item<double>();
      }
      inputs.push_back(torch::cat({toTensor(t.state), toTensor(t.action)}));
      targets.push_back(static_cast<float>(target));
    }
    impl->network->train();
    torch::Tensor predicted = impl->network->forward(torch::stack(inputs));
    torch::Tensor loss = torch::nn::functional::smooth_l1_loss(
        predicted, torch::tensor(targets, torch::kFloat));
    impl->optimizer->zero_grad();
    loss.backward();
    impl->optimizer->step();
    impl->network->eval();
    if (++impl->steps % options.targetSyncSteps == 0)
      impl->syncTarget();
    return std::optional<double>(loss.item<double>());
  } catch (const std::exception &e) {
    return makeError(llvm::Twine("fasor dqn: training: ") + e.what());
  }
}

// The archive holds the network's parameters under their module names and
// the widths and options under "tessel.".
llvm::Error DqnAgent::save(llvm::StringRef path) const {
  try {
    torch::serialize::OutputArchive archive;
    impl->network->save(archive);
    const DqnOptions &o = impl->options;
    archive.write(
        "tessel.widths",
        torch::tensor({impl->stateWidth, impl->actionWidth, o.hidden,
                       o.batchSize, o.replayCapacity, o.targetSyncSteps}));
    archive.write(
        "tessel.rates",
        torch::tensor({o.gamma, o.learningRate, o.epsilon}, torch::kDouble));
    archive.save_to(path.str());
    return llvm::Error::success();
  } catch (const std::exception &e) {
    return makeError(llvm::Twine("fasor dqn: saving to ") + path + ": " +
                     e.what());
  }
}

llvm::Expected<DqnAgent> DqnAgent::load(llvm::StringRef path) {
  try {
    torch::serialize::InputArchive archive;
    archive.load_from(path.str());
    torch::Tensor widths, rates;
    archive.read("tessel.widths", widths);
    archive.read("tessel.rates", rates);
    if (widths.numel() != 6 || rates.numel() != 3)
      return makeError(llvm::Twine("fasor dqn: ") + path +
                       " is not a DQN agent file");
    DqnOptions options;
    options.hidden = widths[2].item<int64_t>();
    options.batchSize = widths[3].item<int64_t>();
    options.replayCapacity = widths[4].item<int64_t>();
    options.targetSyncSteps = widths[5].item<int64_t>();
    options.gamma = rates[0].item<double>();
    options.learningRate = rates[1].item<double>();
    options.epsilon = rates[2].item<double>();
    llvm::Expected<DqnAgent> agent =
        create(widths[0].item<int64_t>(), widths[1].item<int64_t>(), options);
    if (!agent)
      return agent.takeError();
    agent->impl->network->load(archive);
    agent->impl->syncTarget();
    return agent;
  } catch (const std::exception &e) {
    return makeError(llvm::Twine("fasor dqn: loading the agent from ") + path +
                     ": " + e.what());
  }
}
