//===- Json.h - A small self-contained JSON reader and writer ---*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The GPU tools (tessel-cuda-runner, tessel-vendor-bench) must run on a GPU
// machine without libLLVM/libMLIR, so they cannot use llvm::json. Linking
// libLLVMSupport.a statically would work for the tools, but the unit tests
// (and any future in-process user) also load libLLVM.so, and two copies of
// LLVMSupport in one process register the same global options twice. A
// strict RFC 8259 reader and a one-line object writer are a few hundred lines,
// so the runtime carries its own.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_JSON_H
#define TESSEL_RUNTIME_JSON_H

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessel {
namespace runtime {
namespace json {

/// A parsed JSON value. Objects keep their members in input order.
class Value {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind getKind() const { return kind; }
  bool isNull() const { return kind == Kind::Null; }
  bool isBool() const { return kind == Kind::Bool; }
  bool isNumber() const { return kind == Kind::Number; }
  bool isString() const { return kind == Kind::String; }
  bool isArray() const { return kind == Kind::Array; }
  bool isObject() const { return kind == Kind::Object; }
  /// True for a number written without fraction or exponent that fits in
  /// int64_t; getInteger() then holds it exactly.
  bool isInteger() const { return kind == Kind::Number && integral; }

  bool getBool() const { return boolean; }
  double getNumber() const { return number; }
  int64_t getInteger() const { return integer; }
  const std::string &getString() const { return string; }
  const std::vector<Value> &getArray() const { return array; }
  const std::vector<std::pair<std::string, Value>> &getObject() const {
    return object;
  }
  /// The member `key` of an object, or null when absent (or not an object).
  const Value *get(std::string_view key) const;

  /// "null", "a boolean", "a number", "a string", "an array", "an object".
  static const char *describe(Kind kind);

private:
  friend class Parser;
  Kind kind = Kind::Null;
  bool boolean = false;
  bool integral = false;
  double number = 0;
  int64_t integer = 0;
  std::string string;
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object;
};

/// Parses `text` (one JSON value, surrounding whitespace allowed). On failure
/// returns false and sets `error` to "line L, column C: <what>".
bool parse(std::string_view text, Value &result, std::string &error);

/// `text` as a JSON string literal, quotes included.
std::string quote(std::string_view text);
/// The shortest decimal that reads back as `value`; "null" for NaN and
/// infinities, which JSON cannot represent.
std::string formatNumber(double value);

/// Builds one JSON object on one line, members in the order they are added.
class ObjectWriter {
public:
  ObjectWriter &addString(std::string_view key, std::string_view value);
  ObjectWriter &addInt(std::string_view key, int64_t value);
  ObjectWriter &addNumber(std::string_view key, double value);
  ObjectWriter &addBool(std::string_view key, bool value);
  /// Adds `json`, which must already be valid JSON (e.g. a nested object).
  ObjectWriter &addRaw(std::string_view key, std::string_view json);

  /// The object text, "{...}", without a newline.
  std::string str() const { return text + "}"; }

private:
  void addKey(std::string_view key);
  std::string text = "{";
};

} // namespace json
} // namespace runtime
} // namespace tessel

#endif // TESSEL_RUNTIME_JSON_H
