//===- CompilePtx.cpp - Assemble PTX into cubins with ptxas ---------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Upstream `gpu-module-to-binary` can call ptxas itself, but it does not
// report what ptxas says about each kernel. The tuner needs registers,
// spills and shared memory of every candidate, so Tessel serializes to PTX
// upstream and assembles here, with `ptxas -v`: the objects of a module at
// the same time on every core when the context is multithreaded (ptxas is
// three quarters of a model's compile time), in order otherwise; the output
// is the same either way.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/KernelResources.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/Support/CompileCache.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
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

/// One PTX object to assemble, and what assembling it gave. `run` touches
/// nothing of MLIR, so that objects assemble on worker threads.
struct AssemblyJob {
  gpu::BinaryOp binary;
  unsigned objectIndex = 0;
  std::string chip;
  std::string ptx;
  /// Filled by run(): the payload (cubin or fatbinary) and ptxas's log, or
  /// the error.
  std::string payload;
  std::string log;
  std::string error;
  /// What the compile cache said of the object.
  CacheLookup lookup = CacheLookup::Miss;
};
} // namespace

/// Creates a temporary file; returns an error message, or "".
static std::string createTemp(StringRef suffix, TempFile &file) {
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tessel", suffix, file.path))
    return "cannot create a temporary file: " + ec.message();
  return "";
}

/// Reads `path` into `contents`; returns an error message, or "".
static std::string readFile(StringRef path, std::string &contents) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return ("cannot read '" + path + "': " + buffer.getError().message())
        .str();
  contents = (*buffer)->getBuffer().str();
  return "";
}

/// Runs `program` with `args`; returns "" or a message with its standard
/// error.
static std::string run(StringRef program, ArrayRef<StringRef> args,
                       StringRef errPath) {
  std::optional<StringRef> redirects[] = {std::nullopt, std::nullopt, errPath};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(program, args, /*Env=*/std::nullopt,
                                     redirects, /*SecondsToWait=*/120,
                                     /*MemoryLimit=*/0, &message);
  if (rc == 0)
    return "";
  std::string log;
  (void)readFile(errPath, log);
  return (llvm::sys::path::filename(program) + " failed (" +
          (message.empty() ? "exit " + std::to_string(rc) : message) +
          "): " + log)
      .str();
}

/// The dynamic shared memory each kernel's launches allocate in `module`,
/// keyed by the launch's kernel symbol (the largest constant size;
/// tessel-dynamic-shared-memory sets one).
static DenseMap<SymbolRefAttr, int64_t> getDynamicSharedMemory(Operation *module) {
  DenseMap<SymbolRefAttr, int64_t> bytes;
  module->walk([&](gpu::LaunchFuncOp launch) {
    APInt size;
    Value value = launch.getDynamicSharedMemorySize();
    if (value && matchPattern(value, m_ConstantInt(&size))) {
      int64_t &most = bytes[launch.getKernel()];
      most = std::max(most, size.getSExtValue());
    }
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

    // The PTX objects, in module order.
    std::vector<AssemblyJob> jobs;
    getOperation().walk([&](gpu::BinaryOp binary) {
      for (auto [index, attr] : llvm::enumerate(binary.getObjects())) {
        auto object = cast<gpu::ObjectAttr>(attr);
        auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
        if (object.getFormat() != gpu::CompilationTarget::Assembly || !target)
          continue;
        AssemblyJob &job = jobs.emplace_back();
        job.binary = binary;
        job.objectIndex = index;
        job.chip = target.getChip().str();
        job.ptx = object.getObject().getValue().str();
      }
    });

    std::optional<CompileCache> cache =
        CompileCache::open(cacheDir, cacheSizeMb);
    // What identifies the assembler in cache keys.
    std::string tools = CompileCache::getFileIdentity(ptxas);
    if (format == "fatbin") {
      SmallString<128> fatbinary(cudaPath);
      llvm::sys::path::append(fatbinary, "bin", "fatbinary");
      tools += "\n" + CompileCache::getFileIdentity(fatbinary);
    }
    auto assembleCached = [&](AssemblyJob &job) {
      std::string key;
      if (cache) {
        std::string opt = std::to_string(optLevel);
        key = CompileCache::makeKey({"tessel-compile-ptx-v1", tools, format,
                                     job.chip, opt, job.ptx});
        if (lookUp(*cache, key, job))
          return;
      }
      assemble(job, ptxas);
      if (cache && job.error.empty())
        (void)cache->store(key,
                           CompileCache::packFields({job.payload, job.log}));
    };

    // Assemble them, on every core when the context allows threads (a
    // compile worker's context does not: its process is one of many).
    if (getContext().isMultithreadingEnabled() && jobs.size() > 1) {
      llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
      for (AssemblyJob &job : jobs)
        pool.async([&] { assembleCached(job); });
      pool.wait();
    } else {
      for (AssemblyJob &job : jobs)
        assembleCached(job);
    }
    if (cache && cacheReport) {
      unsigned hits = 0, corrupt = 0;
      for (const AssemblyJob &job : jobs) {
        hits += job.lookup == CacheLookup::Hit;
        corrupt += job.lookup == CacheLookup::Corrupt;
      }
      emitRemark(getOperation().getLoc())
          << "compile cache: " << hits << " of " << jobs.size() << " "
          << (format == "fatbin" ? "fatbinaries" : "cubins")
          << " from the cache, " << corrupt << " corrupt entries rebuilt";
    }

    // Record the results in order.
    llvm::json::Array table;
    DenseMap<SymbolRefAttr, int64_t> dynamicShared =
        getDynamicSharedMemory(getOperation());
    for (AssemblyJob &job : jobs) {
      if (!job.error.empty()) {
        job.binary.emitError() << job.error;
        return signalPassFailure();
      }
      record(job, dynamicShared, table);
    }
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

  /// Fills `job`'s payload and log from `cache`; returns whether it could.
  /// Thread-safe.
  static bool lookUp(const CompileCache &cache, StringRef key,
                     AssemblyJob &job) {
    std::vector<std::string> fields;
    job.lookup = cache.lookupFields(key, /*count=*/2, fields);
    if (job.lookup != CacheLookup::Hit)
      return false;
    job.payload = std::move(fields[0]);
    job.log = std::move(fields[1]);
    return true;
  }

  /// Assembles `job.ptx` with ptxas (and fatbinary): fills its payload and
  /// log, or its error. Thread-safe.
  void assemble(AssemblyJob &job, StringRef ptxas) const {
    TempFile ptxFile, cubinFile, logFile;
    for (auto [suffix, file] :
         {std::pair<StringRef, TempFile *>{"ptx", &ptxFile},
          {"cubin", &cubinFile},
          {"log", &logFile}})
      if (job.error = createTemp(suffix, *file); !job.error.empty())
        return;
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(ptxFile.path, ec);
      if (ec) {
        job.error = "cannot write PTX: " + ec.message();
        return;
      }
      os << job.ptx;
    }
    std::string arch = "-arch=" + job.chip;
    std::string opt = "-O" + std::to_string(optLevel);
    SmallVector<StringRef> args = {ptxas, arch, opt, "-v",
                                   ptxFile.path, "-o", cubinFile.path};
    if (job.error = run(ptxas, args, logFile.path); !job.error.empty())
      return;
    if (job.error = readFile(logFile.path, job.log); !job.error.empty())
      return;
    if (job.error = readFile(cubinFile.path, job.payload); !job.error.empty())
      return;
    if (format == "fatbin")
      job.error = makeFatbin(job, ptxFile.path, cubinFile.path);
  }

  /// Replaces the job's object by its payload, with ptxas's figures (shared
  /// memory plus `dynamicShared` of its launches) and the PTX report of each
  /// kernel in its properties and `table`.
  void record(AssemblyJob &job,
              const DenseMap<SymbolRefAttr, int64_t> &dynamicShared,
              llvm::json::Array &table) {
    gpu::BinaryOp binary = job.binary;
    MLIRContext *ctx = binary.getContext();
    Builder builder(ctx);
    SmallVector<NamedAttribute> kernels;
    std::map<std::string, PtxCounts> counts = countPtxKernels(job.ptx);
    for (KernelResources &kernel : parsePtxasLog(job.log)) {
      auto it = counts.find(kernel.name);
      if (it != counts.end())
        kernel.ptx = it->second;
      kernel.dynamicSharedMemoryBytes = dynamicShared.lookup(SymbolRefAttr::get(
          binary.getSymNameAttr(),
          {FlatSymbolRefAttr::get(ctx, kernel.name)}));
      kernel.sharedMemoryBytes += kernel.dynamicSharedMemoryBytes;
      kernels.push_back(builder.getNamedAttr(kernel.name,
                                             kernel.toAttribute(ctx)));
      llvm::json::Object row = kernel.toJSON();
      row["module"] = binary.getSymName().str();
      row["chip"] = job.chip;
      table.push_back(std::move(row));
    }
    SmallVector<Attribute> objects(binary.getObjects().begin(),
                                   binary.getObjects().end());
    auto object = cast<gpu::ObjectAttr>(objects[job.objectIndex]);
    NamedAttrList properties(object.getProperties());
    properties.set("tessel.kernels", builder.getDictionaryAttr(kernels));
    gpu::CompilationTarget outFormat = format == "fatbin"
                                           ? gpu::CompilationTarget::Fatbin
                                           : gpu::CompilationTarget::Binary;
    objects[job.objectIndex] = gpu::ObjectAttr::get(
        ctx, object.getTarget(), outFormat, builder.getStringAttr(job.payload),
        properties.getDictionary(ctx), object.getKernels());
    binary.setObjectsAttr(ArrayAttr::get(ctx, objects));
  }

  /// Replaces the job's cubin by a fatbinary of it and its PTX; returns an
  /// error message, or "". Thread-safe.
  std::string makeFatbin(AssemblyJob &job, StringRef ptxPath,
                         StringRef cubinPath) const {
    SmallString<128> fatbinary(cudaPath);
    llvm::sys::path::append(fatbinary, "bin", "fatbinary");
    TempFile outFile, logFile;
    if (std::string error = createTemp("fatbin", outFile); !error.empty())
      return error;
    if (std::string error = createTemp("log", logFile); !error.empty())
      return error;
    std::string sm = StringRef(job.chip).drop_front(3).str();
    std::string elf = "--image3=kind=elf,sm=" + sm + ",file=" + cubinPath.str();
    std::string ptx = "--image3=kind=ptx,sm=" + sm + ",file=" + ptxPath.str();
    std::string out = "--create=" + outFile.path.str().str();
    SmallVector<StringRef> args = {fatbinary, "-64", out, elf, ptx};
    if (std::string error = run(fatbinary, args, logFile.path);
        !error.empty())
      return error;
    return readFile(outFile.path, job.payload);
  }
};
} // namespace
