# Tessel: the two commands of the README.
#   make tune   set up, build, and run the main job on examples/
#   make test   set up, build, and run every lit and gtest test in one lit run

BUILD_DIR ?= build
BUILD_TYPE ?= Release
LLVM_BIN := /usr/lib/llvm-22/bin
LIT := $(LLVM_BIN)/lit
JOBS ?= $(shell nproc)
PACKAGES := llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools \
            libxgboost-dev libsqlite3-dev googletest libgtest-dev cmake ninja-build \
            ccache g++ python3 python3-matplotlib liblemon-dev \
            python3-dev pybind11-dev python3-pytest libtorch-dev \
            libopenblas0-pthread libpq-dev postgresql slurm-wlm munge \
            python3-psutil

.PHONY: all deps configure build test tune check-lit clean

all: build

deps:
	@bash scripts/install-deps.sh $(PACKAGES)

$(BUILD_DIR)/build.ninja: CMakeLists.txt | deps
	cmake -G Ninja -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	ninja -C $(BUILD_DIR) -j $(JOBS)

# A test that hangs fails after TEST_TIMEOUT seconds (lit needs psutil to
# kill it) instead of holding the whole run past CI's limit.
TEST_TIMEOUT ?= 1200

test: build
	$(LIT) -sv --no-gtest-sharding --timeout=$(TEST_TIMEOUT) $(BUILD_DIR)/test $(BUILD_DIR)/test/Unit

tune: build
	@bash scripts/tune-examples.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR)
