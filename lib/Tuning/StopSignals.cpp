//===- StopSignals.cpp - SIGINT/SIGTERM as a stop request -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/StopSignals.h"

#include <csignal>
#include <signal.h>

using namespace mlir::tessel;

static volatile std::sig_atomic_t stopSignal = 0;

static void recordStopSignal(int signal) { stopSignal = signal; }

void mlir::tessel::installStopSignalHandlers() {
  struct sigaction action = {};
  action.sa_handler = recordStopSignal;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int mlir::tessel::receivedStopSignal() { return stopSignal; }

const char *mlir::tessel::stopSignalName(int signal) {
  return signal == SIGINT ? "SIGINT" : "SIGTERM";
}
