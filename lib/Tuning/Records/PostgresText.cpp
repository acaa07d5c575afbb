//===- PostgresText.cpp - PostgreSQL URLs and statement text --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The parts of the PostgreSQL support that need no libpq, built always: a
// Tessel without libpq still recognizes a PostgreSQL URL and says so.
//
//===----------------------------------------------------------------------===//

#include "Postgres.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace mlir::tessel::sql;
using llvm::StringRef;

bool mlir::tessel::sql::isPostgresUrl(StringRef url) {
  return url.starts_with("postgresql://") || url.starts_with("postgres://");
}

std::string mlir::tessel::sql::redactPostgresUrl(StringRef url) {
  auto [scheme, rest] = url.split("://");
  size_t slash = rest.find('/');
  StringRef authority = rest.substr(0, slash);
  size_t at = authority.rfind('@');
  std::string result = (scheme + "://").str();
  if (at != StringRef::npos && authority.substr(0, at).contains(':'))
    result += (authority.substr(0, at).split(':').first + ":***" +
               authority.substr(at))
                  .str();
  else
    result += authority.str();
  if (slash == StringRef::npos)
    return result;
  StringRef path = rest.substr(slash);
  // A password in the query string: ?password=... or &password=...
  size_t key = path.find("password=");
  if (key != StringRef::npos &&
      (path[key - 1] == '?' || path[key - 1] == '&')) {
    size_t end = path.find('&', key);
    result += (path.substr(0, key + 9) + "***").str();
    if (end != StringRef::npos)
      result += path.substr(end).str();
    return result;
  }
  return result + path.str();
}

std::string mlir::tessel::sql::toPostgresParameters(StringRef sql, int &count) {
  std::string out;
  out.reserve(sql.size());
  count = 0;
  char quote = 0;
  for (size_t i = 0; i < sql.size(); ++i) {
    char c = sql[i];
    if (quote) {
      if (c == quote)
        quote = 0;
      out += c;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      out += c;
      continue;
    }
    if (c == '?' && i + 1 < sql.size() && llvm::isDigit(sql[i + 1])) {
      size_t end = i + 1;
      while (end < sql.size() && llvm::isDigit(sql[end]))
        ++end;
      int number = 0;
      sql.slice(i + 1, end).getAsInteger(10, number);
      count = std::max(count, number);
      out += '$';
      out += sql.slice(i + 1, end).str();
      i = end - 1;
      continue;
    }
    out += c;
  }
  return out;
}
