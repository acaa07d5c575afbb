//===- CompileCache.h - Content-addressed compile cache ---------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A directory of compiled artefacts (PTX, cubins, whole compiled modules)
// addressed by a hash of everything that made them: the input, the options
// and the identity of the compiler. Entries are written atomically (a
// temporary file renamed into place) so that concurrent compiles and killed
// ones never leave a partial entry, and every entry carries a checksum of
// its payload: a corrupt entry is removed and reported as such, never used.
// The directory is kept under a size limit by LLVM's cache pruning (least
// recently used entries go first). docs/CompileCache.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_SUPPORT_COMPILECACHE_H
#define TESSEL_SUPPORT_COMPILECACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// What a lookup found.
enum class CacheLookup {
  /// An intact entry: its payload is returned.
  Hit,
  /// No entry under the key.
  Miss,
  /// An entry whose checksum or framing is wrong; it was removed.
  Corrupt,
};

/// A compile cache in one directory. Thread-safe and safe across processes:
/// it holds no state but its directory and limit.
class CompileCache {
public:
  /// The cache in `directory` (created on first store), pruned to at most
  /// `maxBytes` bytes.
  CompileCache(std::string directory, uint64_t maxBytes);

  /// The directory a cache option names: `option` itself when set, "off"
  /// (disabled) when it is "off", and otherwise $TESSEL_CACHE_DIR ("off"
  /// disables), $XDG_CACHE_HOME/tessel or $HOME/.cache/tessel, in that
  /// order; "off" when none is set.
  static std::string resolveDirectory(llvm::StringRef option);

  /// The cache `directoryOption` selects (see resolveDirectory), or none
  /// when it is disabled.
  static std::optional<CompileCache> open(llvm::StringRef directoryOption,
                                          uint64_t maxMegabytes);

  /// A key for `parts`: the hex BLAKE3 hash of the parts, each prefixed by
  /// its length (so that no two lists of parts share a key).
  static std::string makeKey(llvm::ArrayRef<llvm::StringRef> parts);

  /// The identity of a file for a key: its path, size and modification
  /// time, or "missing:<path>". Cheap (one stat); changes when the file is
  /// rebuilt or reinstalled.
  static std::string getFileIdentity(llvm::StringRef path);

  /// The identity (getFileIdentity) of the executable or shared library
  /// holding the code at `address` (a function of the library).
  static std::string getLoadedObjectIdentity(const void *address);

  /// The identity of the executable or shared library holding Tessel's
  /// code: keys of artefacts that Tessel's own passes made include it, so
  /// that a rebuilt Tessel never reuses them.
  static const std::string &getTesselBinaryIdentity();

  /// Packs strings into one payload, and back (nullopt when `payload` is
  /// not such a packing).
  static std::string packFields(llvm::ArrayRef<llvm::StringRef> fields);
  static std::optional<std::vector<std::string>>
  unpackFields(llvm::StringRef payload);

  /// Looks `key` up; on a hit, fills `payload`. A corrupt entry is removed.
  CacheLookup lookup(llvm::StringRef key, std::string &payload) const;

  /// lookup() of an entry stored as packFields() of `count` strings: on a
  /// hit, fills `fields`. An intact entry that is not such a packing is
  /// Corrupt (left for the next store() to replace).
  CacheLookup lookupFields(llvm::StringRef key, size_t count,
                           std::vector<std::string> &fields) const;

  /// Stores `payload` under `key` (replacing any entry), then prunes the
  /// directory to its size limit at most once a minute. Failures (a
  /// read-only directory, a full disk) are ignored: the cache is an
  /// optimisation. Returns whether the entry was written.
  bool store(llvm::StringRef key, llvm::StringRef payload) const;

  /// The path of `key`'s entry.
  std::string getEntryPath(llvm::StringRef key) const;

  const std::string &getDirectory() const { return directory; }

private:
  std::string directory;
  uint64_t maxBytes;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_SUPPORT_COMPILECACHE_H
