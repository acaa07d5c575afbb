//===- CompileCache.cpp - Content-addressed cache of compiled code --------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Support/CompileCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/CachePruning.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <chrono>
#include <dlfcn.h>

using namespace mlir::tessel;
using llvm::StringRef;

namespace {
/// Entries begin with this, then the payload's size (8 bytes, little
/// endian) and its BLAKE3 hash; then the payload. Bump the version when the
/// framing changes.
constexpr StringRef kMagic = "TESSELC1";
constexpr size_t kHashBytes = 32;
constexpr size_t kHeaderBytes = 8 + 8 + kHashBytes;
/// pruneCache only considers files whose names begin with this.
constexpr StringRef kEntryPrefix = "llvmcache-";
} // namespace

CompileCache::CompileCache(std::string directory, uint64_t maxBytes)
    : directory(std::move(directory)), maxBytes(maxBytes) {}

std::string CompileCache::resolveDirectory(StringRef option) {
  if (!option.empty())
    return option.str();
  if (std::optional<std::string> dir =
          llvm::sys::Process::GetEnv("TESSEL_CACHE_DIR");
      dir && !dir->empty())
    return *dir;
  llvm::SmallString<256> path;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && !xdg->empty()) {
    path = *xdg;
    llvm::sys::path::append(path, "tessel");
    return std::string(path);
  }
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("HOME");
      home && !home->empty()) {
    path = *home;
    llvm::sys::path::append(path, ".cache", "tessel");
    return std::string(path);
  }
  return "off";
}

std::optional<CompileCache> CompileCache::open(StringRef directoryOption,
                                               uint64_t maxMegabytes) {
  std::string directory = resolveDirectory(directoryOption);
  if (directory == "off")
    return std::nullopt;
  return CompileCache(std::move(directory), maxMegabytes << 20);
}

std::string CompileCache::makeKey(llvm::ArrayRef<StringRef> parts) {
  llvm::BLAKE3 hasher;
  for (StringRef part : parts) {
    uint8_t size[8];
    llvm::support::endian::write64le(size, part.size());
    hasher.update(llvm::ArrayRef<uint8_t>(size));
    hasher.update(part);
  }
  return llvm::toHex(hasher.final(), /*LowerCase=*/true);
}

std::string CompileCache::getFileIdentity(StringRef path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return ("missing:" + path).str();
  auto mtime = std::chrono::duration_cast<std::chrono::nanoseconds>(
                   status.getLastModificationTime().time_since_epoch())
                   .count();
  return (path + ":" + llvm::Twine(status.getSize()) + ":" + llvm::Twine(mtime))
      .str();
}

std::string CompileCache::getLoadedObjectIdentity(const void *address) {
  Dl_info info;
  llvm::SmallString<256> path;
  if (dladdr(address, &info) && info.dli_fname &&
      !llvm::sys::fs::real_path(info.dli_fname, path))
    return getFileIdentity(path);
  // The main executable, whatever the working directory.
  return getFileIdentity(
      llvm::sys::fs::getMainExecutable(nullptr, const_cast<void *>(address)));
}

/// An address inside the object (executable or shared library) holding
/// this file's code.
static void anchor() {}

const std::string &CompileCache::getTesselBinaryIdentity() {
  static const std::string identity =
      getLoadedObjectIdentity(reinterpret_cast<const void *>(&anchor));
  return identity;
}

std::string CompileCache::packFields(llvm::ArrayRef<StringRef> fields) {
  std::string payload;
  for (StringRef field : fields) {
    char size[8];
    llvm::support::endian::write64le(size, field.size());
    payload.append(size, sizeof(size));
    payload.append(field.begin(), field.end());
  }
  return payload;
}

std::optional<std::vector<std::string>>
CompileCache::unpackFields(StringRef payload) {
  std::vector<std::string> fields;
  while (!payload.empty()) {
    if (payload.size() < 8)
      return std::nullopt;
    uint64_t size = llvm::support::endian::read64le(payload.data());
    payload = payload.drop_front(8);
    if (size > payload.size())
      return std::nullopt;
    fields.push_back(payload.take_front(size).str());
    payload = payload.drop_front(size);
  }
  return fields;
}

std::string CompileCache::getEntryPath(StringRef key) const {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, kEntryPrefix + key);
  return std::string(path);
}

/// The BLAKE3 hash of `payload`.
static std::array<uint8_t, kHashBytes> hashPayload(StringRef payload) {
  llvm::BLAKE3 hasher;
  hasher.update(payload);
  return hasher.final();
}

CacheLookup CompileCache::lookupFields(StringRef key, size_t count,
                                       std::vector<std::string> &fields) const {
  std::string payload;
  CacheLookup found = lookup(key, payload);
  if (found != CacheLookup::Hit)
    return found;
  std::optional<std::vector<std::string>> unpacked = unpackFields(payload);
  if (!unpacked || unpacked->size() != count)
    return CacheLookup::Corrupt;
  fields = std::move(*unpacked);
  return CacheLookup::Hit;
}

CacheLookup CompileCache::lookup(StringRef key, std::string &payload) const {
  std::string path = getEntryPath(key);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return CacheLookup::Miss;
  StringRef entry = (*buffer)->getBuffer();
  bool intact = entry.size() >= kHeaderBytes && entry.starts_with(kMagic);
  if (intact) {
    uint64_t size = llvm::support::endian::read64le(entry.data() + 8);
    StringRef hash = entry.substr(16, kHashBytes);
    StringRef body = entry.drop_front(kHeaderBytes);
    std::array<uint8_t, kHashBytes> actual = hashPayload(body);
    intact = size == body.size() &&
             hash == StringRef(reinterpret_cast<const char *>(actual.data()),
                               actual.size());
    if (intact)
      payload = body.str();
  }
  if (!intact) {
    (void)llvm::sys::fs::remove(path);
    return CacheLookup::Corrupt;
  }
  // Least recently used entries are pruned first: mark this one used.
  int fd;
  if (!llvm::sys::fs::openFileForWrite(path, fd, llvm::sys::fs::CD_OpenExisting,
                                       llvm::sys::fs::OF_Append)) {
    (void)llvm::sys::fs::setLastAccessAndModificationTime(
        fd, std::chrono::system_clock::now());
    (void)llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  return CacheLookup::Hit;
}

bool CompileCache::store(StringRef key, StringRef payload) const {
  if (llvm::sys::fs::create_directories(directory))
    return false;
  llvm::SmallString<256> model(directory);
  // Named as entries are, so that pruning also removes what a killed
  // process left.
  llvm::sys::path::append(model, kEntryPrefix + "tmp-%%%%%%%%%%%%");
  llvm::Expected<llvm::sys::fs::TempFile> temp =
      llvm::sys::fs::TempFile::create(model);
  if (!temp) {
    llvm::consumeError(temp.takeError());
    return false;
  }
  std::string header(kMagic);
  char size[8];
  llvm::support::endian::write64le(size, payload.size());
  header.append(size, sizeof(size));
  std::array<uint8_t, kHashBytes> hash = hashPayload(payload);
  header.append(reinterpret_cast<const char *>(hash.data()), hash.size());
  bool written;
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    os << header << payload;
    os.flush();
    written = !os.has_error();
    os.clear_error();
  }
  llvm::Error done = written ? temp->keep(getEntryPath(key)) : temp->discard();
  if (done) {
    llvm::consumeError(std::move(done));
    return false;
  }
  if (!written)
    return false;

  llvm::CachePruningPolicy policy;
  policy.Interval = std::chrono::seconds(60);
  policy.Expiration = std::chrono::seconds(0);
  policy.MaxSizePercentageOfAvailableSpace = 0;
  policy.MaxSizeBytes = maxBytes;
  policy.MaxSizeFiles = 0;
  (void)llvm::pruneCache(directory, policy);
  return true;
}
