//===- Postgres.cpp - The records' SQL over PostgreSQL --------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "Postgres.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdio>
#include <cstdlib>
#include <libpq-fe.h>
#include <optional>
#include <vector>

using namespace mlir::tessel::sql;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

/// libpq's message on one line: "ERROR:  " dropped, lines joined.
static std::string oneLine(StringRef message) {
  message = message.trim();
  message.consume_front("ERROR:");
  llvm::SmallVector<StringRef> lines;
  message.split(lines, '\n', -1, /*KeepEmpty=*/false);
  std::string result;
  for (StringRef line : lines) {
    if (!result.empty())
      result += ' ';
    result += line.trim().str();
  }
  return result;
}

namespace {
class PostgresConnection;

/// A statement prepared on the server (PQprepare) and run with text
/// parameters; its whole result is held until reset().
class PostgresStatement : public PreparedStatement {
public:
  PostgresStatement(PostgresConnection &conn, std::string name, const char *sql,
                    int parameters)
      : conn(conn), name(std::move(name)), sql(sql), params(parameters) {}
  ~PostgresStatement() override { PQclear(result); }

  void bind(int index, int64_t value) override {
    param(index) = std::to_string(value);
  }
  void bind(int index, double value) override {
    char text[32];
    std::snprintf(text, sizeof(text), "%.17g", value);
    param(index) = text;
  }
  void bind(int index, StringRef value) override { param(index) = value.str(); }
  void bindNull(int index) override { param(index).reset(); }

  Expected<bool> step() override;

  bool isNull(int column) const override {
    return PQgetisnull(result, row, column);
  }
  int64_t getInt(int column) const override {
    const char *text = PQgetvalue(result, row, column);
    // Booleans come back as t and f.
    if (text[0] == 't' || text[0] == 'f')
      return text[0] == 't';
    return std::strtoll(text, nullptr, 10);
  }
  double getDouble(int column) const override {
    return std::strtod(PQgetvalue(result, row, column), nullptr);
  }
  std::string getText(int column) const override {
    return std::string(PQgetvalue(result, row, column),
                       PQgetlength(result, row, column));
  }

  void reset() override {
    PQclear(result);
    result = nullptr;
    row = -1;
    for (std::optional<std::string> &value : params)
      value.reset();
  }

private:
  std::optional<std::string> &param(int index) {
    assert(index >= 1 && index <= static_cast<int>(params.size()) &&
           "bad bind index");
    return params[index - 1];
  }

  PostgresConnection &conn;
  std::string name;
  const char *sql;
  std::vector<std::optional<std::string>> params;
  PGresult *result = nullptr;
  int row = -1;
};

class PostgresConnection : public Connection {
public:
  PostgresConnection(PGconn *pg, std::string name)
      : Connection(Engine::PostgreSQL, std::move(name)), pg(pg) {}
  ~PostgresConnection() override {
    clearStatements();
    PQfinish(pg);
  }

  PGconn *get() const { return pg; }
  void setMessage(StringRef text) { message = oneLine(text); }

  Error exec(const char *sql) override {
    PGresult *result = PQexec(pg, sql);
    ExecStatusType status = PQresultStatus(result);
    bool ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
    if (!ok)
      setMessage(result ? PQresultErrorMessage(result) : PQerrorMessage(pg));
    PQclear(result);
    if (!ok)
      return error(StringRef(sql).split('\n').first.trim());
    return Error::success();
  }

  Error beginWriting() override {
    if (Error err = exec("BEGIN"))
      return err;
    // One lock for every writer of the database ("TSLR").
    return exec("SELECT pg_advisory_xact_lock(1414745170)");
  }

  bool inTransaction() const override {
    return PQtransactionStatus(pg) != PQTRANS_IDLE;
  }

protected:
  std::unique_ptr<PreparedStatement> prepareStatement(const char *sql,
                                                      bool &ok) override {
    int parameters = 0;
    std::string text = toPostgresParameters(sql, parameters);
    std::string statementName = "tessel" + std::to_string(++prepared);
    PGresult *result =
        PQprepare(pg, statementName.c_str(), text.c_str(), 0, nullptr);
    ok = PQresultStatus(result) == PGRES_COMMAND_OK;
    if (!ok)
      setMessage(result ? PQresultErrorMessage(result) : PQerrorMessage(pg));
    PQclear(result);
    if (!ok)
      return nullptr;
    return std::make_unique<PostgresStatement>(*this, statementName, sql,
                                               parameters);
  }

  std::string lastMessage() const override { return message; }

private:
  PGconn *pg;
  std::string message;
  int prepared = 0;
};
} // namespace

Expected<bool> PostgresStatement::step() {
  if (!result) {
    std::vector<const char *> values;
    for (const std::optional<std::string> &value : params)
      values.push_back(value ? value->c_str() : nullptr);
    result = PQexecPrepared(conn.get(), name.c_str(), values.size(),
                            values.data(), nullptr, nullptr, 0);
    ExecStatusType status = PQresultStatus(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      conn.setMessage(result ? PQresultErrorMessage(result)
                             : PQerrorMessage(conn.get()));
      PQclear(result);
      result = nullptr;
      return conn.error(StringRef(sql).split('\n').first.trim());
    }
  }
  return ++row < PQntuples(result);
}

/// Drops the server's notices ("... already exists, skipping").
static void ignoreNotice(void *, const char *) {}

Expected<std::unique_ptr<Connection>>
mlir::tessel::sql::connectPostgres(StringRef url) {
  std::string name = redactPostgresUrl(url);
  std::string dbname = url.str();
  // Later keywords override the URL's; the URL overrides earlier ones.
  const char *keywords[] = {"connect_timeout", "application_name", "dbname",
                            nullptr};
  const char *values[] = {"10", "tessel", dbname.c_str(), nullptr};
  PGconn *pg = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (!pg)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   name + ": cannot connect: out of memory");
  if (PQstatus(pg) != CONNECTION_OK) {
    std::string message = oneLine(PQerrorMessage(pg));
    PQfinish(pg);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   name + ": cannot connect: " + message);
  }
  PQsetNoticeProcessor(pg, ignoreNotice, nullptr);
  auto conn = std::make_unique<PostgresConnection>(pg, name);
  // Every float8 printed exactly (the default since PostgreSQL 12).
  if (Error err = conn->exec("SET extra_float_digits = 3"))
    return std::move(err);
  return std::unique_ptr<Connection>(std::move(conn));
}
