//===- Json.cpp - A small self-contained JSON reader and writer -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/Json.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace tessel::runtime;
using namespace tessel::runtime::json;

const Value *Value::get(std::string_view key) const {
  for (const auto &member : object)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

const char *Value::describe(Kind kind) {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "a boolean";
  case Kind::Number:
    return "a number";
  case Kind::String:
    return "a string";
  case Kind::Array:
    return "an array";
  case Kind::Object:
    return "an object";
  }
  return "a value";
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace tessel {
namespace runtime {
namespace json {

/// A recursive-descent parser of RFC 8259 JSON.
class Parser {
public:
  Parser(std::string_view text, std::string &error)
      : text(text), error(error) {}

  bool parseDocument(Value &result) {
    skipSpace();
    if (!parseValue(result, 0))
      return false;
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the JSON value");
    return true;
  }

private:
  /// Deep nesting would overflow the stack; requests are shallow.
  static constexpr int kMaxDepth = 256;

  bool fail(const std::string &what) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    error = "line " + std::to_string(line) + ", column " +
            std::to_string(column) + ": " + what;
    return false;
  }

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }

  void skipSpace() {
    while (!atEnd() && (text[pos] == ' ' || text[pos] == '\t' ||
                        text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool parseLiteral(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return fail("invalid literal");
    pos += word.size();
    return true;
  }

  bool parseValue(Value &value, int depth) {
    if (depth > kMaxDepth)
      return fail("nesting deeper than " + std::to_string(kMaxDepth));
    if (atEnd())
      return fail("unexpected end of input, expected a value");
    switch (peek()) {
    case '{':
      return parseObject(value, depth);
    case '[':
      return parseArray(value, depth);
    case '"':
      value.kind = Value::Kind::String;
      return parseString(value.string);
    case 't':
      value.kind = Value::Kind::Bool;
      value.boolean = true;
      return parseLiteral("true");
    case 'f':
      value.kind = Value::Kind::Bool;
      value.boolean = false;
      return parseLiteral("false");
    case 'n':
      value.kind = Value::Kind::Null;
      return parseLiteral("null");
    default:
      if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
        return parseNumber(value);
      return fail(std::string("unexpected character '") + peek() + "'");
    }
  }

  bool parseObject(Value &value, int depth) {
    value.kind = Value::Kind::Object;
    ++pos; // '{'
    skipSpace();
    if (peek() == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      if (peek() != '"')
        return fail("expected a string key in object");
      size_t keyStart = pos;
      std::string key;
      if (!parseString(key))
        return false;
      for (const auto &member : value.object)
        if (member.first == key) {
          pos = keyStart;
          return fail("duplicate key '" + key + "'");
        }
      skipSpace();
      if (peek() != ':')
        return fail("expected ':' after object key");
      ++pos;
      skipSpace();
      value.object.emplace_back(std::move(key), Value());
      if (!parseValue(value.object.back().second, depth + 1))
        return false;
      skipSpace();
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == '}') {
        ++pos;
        return true;
      }
      return fail("expected ',' or '}' in object");
    }
  }

  bool parseArray(Value &value, int depth) {
    value.kind = Value::Kind::Array;
    ++pos; // '['
    skipSpace();
    if (peek() == ']') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      value.array.emplace_back();
      if (!parseValue(value.array.back(), depth + 1))
        return false;
      skipSpace();
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == ']') {
        ++pos;
        return true;
      }
      return fail("expected ',' or ']' in array");
    }
  }

  static void appendUtf8(std::string &out, uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  bool parseHex4(uint32_t &code) {
    if (pos + 4 > text.size())
      return fail("truncated \\u escape");
    code = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[pos++];
      code <<= 4;
      if (c >= '0' && c <= '9')
        code |= c - '0';
      else if (c >= 'a' && c <= 'f')
        code |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        code |= c - 'A' + 10;
      else
        return fail("invalid hex digit in \\u escape");
    }
    return true;
  }

  bool parseString(std::string &out) {
    ++pos; // '"'
    while (true) {
      if (atEnd())
        return fail("unterminated string");
      char c = text[pos];
      if (c == '"') {
        ++pos;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in string");
      if (c != '\\') {
        out += c;
        ++pos;
        continue;
      }
      ++pos;
      if (atEnd())
        return fail("unterminated string");
      char escape = text[pos++];
      switch (escape) {
      case '"':
      case '\\':
      case '/':
        out += escape;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t code = 0;
        if (!parseHex4(code))
          return false;
        if (code >= 0xD800 && code < 0xDC00) {
          uint32_t low = 0;
          if (text.substr(pos, 2) != "\\u")
            return fail("unpaired surrogate in \\u escape");
          pos += 2;
          if (!parseHex4(low))
            return false;
          if (low < 0xDC00 || low >= 0xE000)
            return fail("unpaired surrogate in \\u escape");
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        } else if (code >= 0xDC00 && code < 0xE000) {
          return fail("unpaired surrogate in \\u escape");
        }
        appendUtf8(out, code);
        break;
      }
      default:
        --pos;
        return fail(std::string("invalid escape '\\") + escape + "'");
      }
    }
  }

  bool parseNumber(Value &value) {
    size_t start = pos;
    bool integral = true;
    if (peek() == '-')
      ++pos;
    if (peek() == '0') {
      ++pos;
    } else if (peek() >= '1' && peek() <= '9') {
      while (peek() >= '0' && peek() <= '9')
        ++pos;
    } else {
      return fail("invalid number");
    }
    if (peek() == '.') {
      integral = false;
      ++pos;
      if (!(peek() >= '0' && peek() <= '9'))
        return fail("invalid number: expected a digit after '.'");
      while (peek() >= '0' && peek() <= '9')
        ++pos;
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      ++pos;
      if (peek() == '+' || peek() == '-')
        ++pos;
      if (!(peek() >= '0' && peek() <= '9'))
        return fail("invalid number: expected a digit in the exponent");
      while (peek() >= '0' && peek() <= '9')
        ++pos;
    }
    std::string token(text.substr(start, pos - start));
    value.kind = Value::Kind::Number;
    value.number = std::strtod(token.c_str(), nullptr);
    if (integral) {
      errno = 0;
      long long parsed = std::strtoll(token.c_str(), nullptr, 10);
      value.integral = errno != ERANGE;
      value.integer = parsed;
    }
    return true;
  }

  std::string_view text;
  std::string &error;
  size_t pos = 0;
};

} // namespace json
} // namespace runtime
} // namespace tessel

bool json::parse(std::string_view text, Value &result, std::string &error) {
  result = Value();
  Parser parser(text, error);
  return parser.parseDocument(result);
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

std::string json::quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof(buffer), "\\u%04x",
                      static_cast<unsigned>(static_cast<unsigned char>(c)));
        out += buffer;
      } else {
        out += c;
      }
    }
  }
  out += '"';
  return out;
}

std::string json::formatNumber(double value) {
  if (!std::isfinite(value))
    return "null";
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (ec != std::errc())
    return "null";
  return std::string(buffer, end);
}

void ObjectWriter::addKey(std::string_view key) {
  if (text.size() > 1)
    text += ',';
  text += quote(key);
  text += ':';
}

ObjectWriter &ObjectWriter::addString(std::string_view key,
                                      std::string_view value) {
  addKey(key);
  text += quote(value);
  return *this;
}

ObjectWriter &ObjectWriter::addInt(std::string_view key, int64_t value) {
  addKey(key);
  text += std::to_string(value);
  return *this;
}

ObjectWriter &ObjectWriter::addNumber(std::string_view key, double value) {
  addKey(key);
  text += formatNumber(value);
  return *this;
}

ObjectWriter &ObjectWriter::addBool(std::string_view key, bool value) {
  addKey(key);
  text += value ? "true" : "false";
  return *this;
}

ObjectWriter &ObjectWriter::addRaw(std::string_view key,
                                   std::string_view json) {
  addKey(key);
  text += json;
  return *this;
}
