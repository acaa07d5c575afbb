#!/bin/bash
# Fasor on the networks (default configuration: efficiency mode, the paper's
# default start, the pretrained DQN), then the ablations.
# SIMULATED: sim:h100, analytic fidelity, 1 virtual second per measurement.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
E=/work/shared/eval/frontend-ir
M=/work/main/models
FULL="model=$M/fasor-v100.pt sensitivity=$M/fasor-sensitivity-v100.json dqn=$M/fasor-dqn-v100.pt sampled-starts=0"
run() { # name file trials strategy [more flags]
  local t0=$SECONDS
  rm -f /tmp/fnet/f-$1.db
  /tmp/fnet/tessel-tune-fasor3 $E/$2 --measure=sim:h100 --sim-fidelity=analytic --sim-trial-seconds=1 \
    --strategy="$4" --trials=$3 --seed=1 --db=/tmp/fnet/f-$1.db --report=/tmp/fnet/f-$1.json "${@:5}" > /tmp/fnet/f-$1.log 2>&1
  echo "$1 rc=$? real=$((SECONDS-t0))s" >> /tmp/fnet/fasor.done
}
B=torchmlir-bert-base-seq128.mlir
R=torchmlir-resnet50.mlir
run bert $B 768 "fasor $FULL"
run resnet50 $R 1920 "fasor $FULL"
run mobilenetv2 tpp-mobilenetv2-nhwc.mlir 2048 "fasor $FULL"
run bert-woS $B 768 "fasor $FULL start-points=false"
run bert-sampled $B 768 "fasor $FULL sampled-starts=256"
run resnet50-sampled $R 1920 "fasor $FULL sampled-starts=256"
run bert-sa $B 768 "fasor $FULL explorer=sa"
run bert-woR $B 768 "fasor $FULL roofline=false"
run bert-randnp $B 768 "fasor $FULL random-np=true"
run bert-xgb $B 768 "fasor sensitivity=$M/fasor-sensitivity-v100.json dqn=$M/fasor-dqn-v100.pt sampled-starts=0 cost-model=xgboost"
run bert-onlinedqn $B 768 "fasor model=$M/fasor-v100.pt sensitivity=$M/fasor-sensitivity-v100.json sampled-starts=0"
run bert-quality $B 768 "fasor $FULL mode=quality"
run resnet50-woS $R 1920 "fasor $FULL start-points=false"
run bert-woTL $B 768 "fasor sensitivity=$M/fasor-sensitivity-v100.json dqn=$M/fasor-dqn-v100.pt sampled-starts=0"
# Session 25: MobileBERT's 13 tasks when float constants do not count (its
# layers differ only in IREE's splat placeholder weights), 64 a task.
run mobilebert-ifc iree-tf-mobilebert-squad.mlir 832 "fasor $FULL" --task-equality=ignore-float-constants
