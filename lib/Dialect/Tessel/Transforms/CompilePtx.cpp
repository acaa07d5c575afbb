//===- CompilePtx.cpp - Assemble PTX into cubins with ptxas ---------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Upstream `gpu-module-to-binary` can call ptxas itself, but it does not
// report what ptxas says about each kernel. The tuner needs registers,
// spills and shared memory of every candidate, so Tessel serializes to PTX
// upstream and assembles here, with `ptxas -v`.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/KernelResources.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELCOMPILEPTX
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

/// Removes a temporary file when it goes out of scope.
namespace {
struct TempFile {
  SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};
} // namespace

static LogicalResult createTemp(StringRef suffix, TempFile &file,
                                Operation *op) {
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tessel", suffix, file.path))
    return op->emitError() << "cannot create a temporary file: "
                           << ec.message();
  return success();
}

static FailureOr<std::string> readFile(StringRef path, Operation *op) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return op->emitError() << "cannot read '" << path
                           << "': " << buffer.getError().message();
  return (*buffer)->getBuffer().str();
}

/// Runs `program` with `args`; on failure reports its standard error.
static LogicalResult run(StringRef program, ArrayRef<StringRef> args,
                         StringRef errPath, Operation *op) {
  std::optional<StringRef> redirects[] = {std::nullopt, std::nullopt, errPath};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(program, args, /*Env=*/std::nullopt,
                                     redirects, /*SecondsToWait=*/120,
                                     /*MemoryLimit=*/0, &message);
  if (rc == 0)
    return success();
  FailureOr<std::string> log = readFile(errPath, op);
  return op->emitError() << llvm::sys::path::filename(program) << " failed ("
                         << (message.empty() ? "exit " + std::to_string(rc)
                                             : message)
                         << "): " << (succeeded(log) ? *log : "");
}

/// The dynamic shared memory the launches of `kernel` in `module` allocate
/// (the largest constant size; tessel-dynamic-shared-memory sets one).
static int64_t getDynamicSharedMemory(Operation *module, StringRef kernelModule,
                                      StringRef kernel) {
  int64_t bytes = 0;
  module->walk([&](gpu::LaunchFuncOp launch) {
    APInt size;
    Value value = launch.getDynamicSharedMemorySize();
    if (value && launch.getKernelModuleName() == kernelModule &&
        launch.getKernelName() == kernel &&
        matchPattern(value, m_ConstantInt(&size)))
      bytes = std::max(bytes, size.getSExtValue());
  });
  return bytes;
}

namespace {
struct TesselCompilePtxPass
    : public tessel::impl::TesselCompilePtxBase<TesselCompilePtxPass> {
  using Base::Base;

  void runOnOperation() override {
    if (format != "bin" && format != "fatbin") {
      getOperation().emitError()
          << "tessel-compile-ptx: unknown format '" << format
          << "'; expected bin or fatbin";
      return signalPassFailure();
    }
    SmallString<128> ptxas(cudaPath);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    if (!llvm::sys::fs::can_execute(ptxas)) {
      getOperation().emitError()
          << "cubins need ptxas, which was not found at '" << ptxas
          << "'; install the CUDA toolkit and set CUDA_PATH (or cuda-path), "
             "or use format=isa to emit PTX only";
      return signalPassFailure();
    }
    llvm::json::Array table;
    WalkResult result = getOperation().walk([&](gpu::BinaryOp binary) {
      SmallVector<Attribute> objects;
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<gpu::ObjectAttr>(attr);
        FailureOr<gpu::ObjectAttr> compiled =
            compileObject(binary, object, ptxas, table);
        if (failed(compiled))
          return WalkResult::interrupt();
        objects.push_back(*compiled);
      }
      binary.setObjectsAttr(ArrayAttr::get(binary.getContext(), objects));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    if (!resourcesFile.empty()) {
      std::error_code ec;
      llvm::raw_fd_ostream os(resourcesFile, ec);
      if (ec) {
        getOperation().emitError() << "cannot write '" << resourcesFile
                                   << "': " << ec.message();
        return signalPassFailure();
      }
      os << llvm::formatv("{0:2}", llvm::json::Value(std::move(table)))
         << "\n";
    }
  }

  FailureOr<gpu::ObjectAttr> compileObject(gpu::BinaryOp binary,
                                           gpu::ObjectAttr object,
                                           StringRef ptxas,
                                           llvm::json::Array &table) {
    if (object.getFormat() != gpu::CompilationTarget::Assembly)
      return object;
    auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
    if (!target)
      return object;
    std::string chip = target.getChip().str();
    TempFile ptxFile, cubinFile, logFile;
    if (failed(createTemp("ptx", ptxFile, binary)) ||
        failed(createTemp("cubin", cubinFile, binary)) ||
        failed(createTemp("log", logFile, binary)))
      return failure();
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(ptxFile.path, ec);
      if (ec)
        return binary.emitError() << "cannot write PTX: " << ec.message();
      os << object.getObject().getValue();
    }
    std::string arch = "-arch=" + chip;
    std::string opt = "-O" + std::to_string(optLevel);
    SmallVector<StringRef> args = {ptxas, arch, opt, "-v",
                                   ptxFile.path, "-o", cubinFile.path};
    if (failed(run(ptxas, args, logFile.path, binary)))
      return failure();
    FailureOr<std::string> log = readFile(logFile.path, binary);
    FailureOr<std::string> cubin = readFile(cubinFile.path, binary);
    if (failed(log) || failed(cubin))
      return failure();

    MLIRContext *ctx = binary.getContext();
    Builder builder(ctx);
    SmallVector<NamedAttribute> kernels;
    std::map<std::string, PtxCounts> counts =
        countPtxKernels(object.getObject().getValue());
    for (KernelResources &kernel : parsePtxasLog(*log)) {
      auto it = counts.find(kernel.name);
      if (it != counts.end())
        kernel.ptx = it->second;
      kernel.dynamicSharedMemoryBytes = getDynamicSharedMemory(
          binary->getParentOp(), binary.getSymName(), kernel.name);
      kernel.sharedMemoryBytes += kernel.dynamicSharedMemoryBytes;
      kernels.push_back(builder.getNamedAttr(kernel.name,
                                             kernel.toAttribute(ctx)));
      llvm::json::Object row = kernel.toJSON();
      row["module"] = binary.getSymName().str();
      row["chip"] = chip;
      table.push_back(std::move(row));
    }
    NamedAttrList properties(object.getProperties());
    properties.set("tessel.kernels", builder.getDictionaryAttr(kernels));

    std::string payload = std::move(*cubin);
    gpu::CompilationTarget outFormat = gpu::CompilationTarget::Binary;
    if (format == "fatbin") {
      FailureOr<std::string> fatbin =
          makeFatbin(binary, chip, ptxFile.path, cubinFile.path);
      if (failed(fatbin))
        return failure();
      payload = std::move(*fatbin);
      outFormat = gpu::CompilationTarget::Fatbin;
    }
    return gpu::ObjectAttr::get(ctx, target, outFormat,
                                builder.getStringAttr(payload),
                                properties.getDictionary(ctx),
                                object.getKernels());
  }

  FailureOr<std::string> makeFatbin(gpu::BinaryOp binary, StringRef chip,
                                    StringRef ptxPath, StringRef cubinPath) {
    SmallString<128> fatbinary(cudaPath);
    llvm::sys::path::append(fatbinary, "bin", "fatbinary");
    TempFile outFile, logFile;
    if (failed(createTemp("fatbin", outFile, binary)) ||
        failed(createTemp("log", logFile, binary)))
      return failure();
    std::string sm = chip.drop_front(3).str();
    std::string elf = "--image3=kind=elf,sm=" + sm + ",file=" + cubinPath.str();
    std::string ptx = "--image3=kind=ptx,sm=" + sm + ",file=" + ptxPath.str();
    std::string out = "--create=" + outFile.path.str().str();
    SmallVector<StringRef> args = {fatbinary, "-64", out, elf, ptx};
    if (failed(run(fatbinary, args, logFile.path, binary)))
      return failure();
    return readFile(outFile.path, binary);
  }
};
} // namespace
