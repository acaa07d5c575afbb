//===- PostgresTestServer.h - A PostgreSQL server for tests -----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The tests of the PostgreSQL records run against a throwaway server:
// $TESSEL_TEST_POSTGRES_URL when set, else one that
// scripts/services/postgres-local.sh starts on first use in a temporary
// directory and stops when the test binary exits. Each test gets an empty
// schema of its own. When no server can be started, the tests say why and
// skip (GTEST_SKIP), never silently.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_UNITTESTS_SUPPORT_POSTGRESTESTSERVER_H
#define TESSEL_UNITTESTS_SUPPORT_POSTGRESTESTSERVER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

#include "gtest/gtest.h"

#include <atomic>
#include <cstdlib>
#include <libpq-fe.h>
#include <string>
#include <unistd.h>

#ifndef TESSEL_SOURCE_DIR
#error "PostgresTestServer.h needs TESSEL_SOURCE_DIR"
#endif

namespace mlir {
namespace tessel {
namespace postgres_test {

/// The test server: its URL, or why there is none.
struct Server {
  std::string url;
  std::string problem;
  /// The cluster directory of a server this process started ("" if none).
  std::string dir;
};

/// Runs `command` with the shell; returns its exit status and its standard
/// output (the last line, trimmed).
inline int runShell(const std::string &command, std::string &lastLine) {
  lastLine.clear();
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe)
    return -1;
  char buffer[512];
  while (fgets(buffer, sizeof(buffer), pipe))
    lastLine = llvm::StringRef(buffer).trim().str();
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline void stopServer();

/// The server, started on first use. (Never destroyed: stopServer() runs at
/// exit, after static destructors may have run.)
inline Server &getServer() {
  static Server *server = new Server([] {
    Server result;
    if (std::optional<std::string> url =
            llvm::sys::Process::GetEnv("TESSEL_TEST_POSTGRES_URL")) {
      result.url = *url;
      return result;
    }
    std::string script =
        std::string(TESSEL_SOURCE_DIR) + "/scripts/services/postgres-local.sh";
    // Test binaries start servers side by side: each tries a few ports of
    // its own.
    for (int attempt = 0; attempt < 4; ++attempt) {
      std::string dir = "/tmp/tessel-test-pg-" + std::to_string(getpid()) +
                        "-" + std::to_string(attempt);
      llvm::sys::fs::remove_directories(dir);
      int port = 20000 + (getpid() * 7 + attempt * 131) % 20000;
      std::string line;
      // A test binary killed before its exit handlers run leaves no server
      // behind: the script's watcher stops it when this process is gone.
      int status = runShell("TESSEL_PG_OWNER_PID=" + std::to_string(getpid()) +
                                " " + script + " start " + dir + " " +
                                std::to_string(port) + " 2>&1",
                            line);
      if (status == 0) {
        result.url = line;
        result.dir = dir;
        result.problem.clear();
        std::atexit(stopServer);
        return result;
      }
      result.problem = line.empty() ? "postgres-local.sh failed" : line;
      std::string ignored;
      runShell(script + " stop " + dir + " > /dev/null 2>&1", ignored);
      llvm::sys::fs::remove_directories(dir);
    }
    return result;
  }());
  return *server;
}

/// Stops and removes the server this process started.
inline void stopServer() {
  Server &server = getServer();
  if (server.dir.empty())
    return;
  std::string ignored;
  runShell(std::string(TESSEL_SOURCE_DIR) +
               "/scripts/services/postgres-local.sh stop " + server.dir +
               " > /dev/null 2>&1",
           ignored);
  llvm::sys::fs::remove_directories(server.dir);
  server.dir.clear();
}

/// Runs `sql` on the server's database; returns libpq's message on failure.
inline std::string execOnServer(const std::string &url,
                                const std::string &sql) {
  PGconn *conn = PQconnectdb(url.c_str());
  std::string problem;
  if (PQstatus(conn) != CONNECTION_OK) {
    problem = PQerrorMessage(conn);
  } else {
    PQsetNoticeProcessor(
        conn, [](void *, const char *) {}, nullptr);
    PGresult *result = PQexec(conn, sql.c_str());
    if (PQresultStatus(result) != PGRES_COMMAND_OK &&
        PQresultStatus(result) != PGRES_TUPLES_OK)
      problem = PQresultErrorMessage(result);
    PQclear(result);
  }
  PQfinish(conn);
  return problem;
}

/// An empty schema of the test server, dropped with the object; url() is a
/// records location whose current schema it is.
class Schema {
public:
  Schema() {
    Server &server = getServer();
    if (server.url.empty())
      return;
    static std::atomic<int> counter{0};
    name = "test_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
    std::string problem = execOnServer(server.url, "CREATE SCHEMA " + name);
    if (!problem.empty()) {
      ADD_FAILURE() << "cannot create schema " << name << ": " << problem;
      name.clear();
      return;
    }
    location = server.url + "?options=-csearch_path%3D" + name;
  }
  ~Schema() {
    if (!name.empty())
      execOnServer(getServer().url, "DROP SCHEMA " + name + " CASCADE");
  }

  /// Whether the schema exists; when not, why (for GTEST_SKIP).
  bool available() const { return !location.empty(); }
  std::string whyUnavailable() const {
    return "no PostgreSQL server for the test: " + getServer().problem;
  }
  const std::string &url() const { return location; }

private:
  std::string name;
  std::string location;
};

} // namespace postgres_test
} // namespace tessel
} // namespace mlir

#endif // TESSEL_UNITTESTS_SUPPORT_POSTGRESTESTSERVER_H
