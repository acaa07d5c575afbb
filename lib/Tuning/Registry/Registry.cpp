//===- Registry.cpp - Named tuner components with typed options ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Registry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cinttypes>
#include <cmath>

using namespace mlir;
using namespace mlir::tessel;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

ComponentOptions::~ComponentOptions() = default;
ComponentOptions::OptionBase::~OptionBase() = default;

ComponentOptions::OptionBase::OptionBase(ComponentOptions &parent,
                                         llvm::StringRef name,
                                         llvm::StringRef help, Range range,
                                         std::vector<std::string> choices)
    : name(name.str()), help(help.str()), range(range),
      choices(std::move(choices)) {
  parent.options.push_back(this);
}

std::string tessel::formatOptionNumber(double value) {
  if (std::isfinite(value) && value == std::floor(value) &&
      std::fabs(value) < 1e15)
    return std::to_string(static_cast<int64_t>(value));
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

std::string ComponentOptions::OptionBase::describeAllowed() const {
  if (!choices.empty())
    return llvm::join(choices, ", ");
  if (range.min && range.max)
    return formatOptionNumber(*range.min) + " to " +
           formatOptionNumber(*range.max);
  if (range.min)
    return "at least " + formatOptionNumber(*range.min);
  if (range.max)
    return "at most " + formatOptionNumber(*range.max);
  return "";
}

/// "name=value is out of range: <allowed>" when `value` is outside `range`.
static std::string checkRange(const ComponentOptions::OptionBase &option,
                              double value,
                              const ComponentOptions::Range &range) {
  if ((range.min && value < *range.min) || (range.max && value > *range.max) ||
      std::isnan(value))
    return option.getName().str() + "=" + formatOptionNumber(value) +
           " is out of range: " + option.describeAllowed();
  return "";
}

namespace mlir {
namespace tessel {

template <typename T>
std::string ComponentOptions::Option<T>::parseValue(llvm::StringRef text) {
  if constexpr (std::is_same_v<T, std::string>) {
    value = text.str();
  } else if constexpr (std::is_same_v<T, bool>) {
    std::string lower = text.trim().lower();
    if (lower == "true" || lower == "1" || lower.empty())
      value = true;
    else if (lower == "false" || lower == "0")
      value = false;
    else
      return name + "=" + text.str() + " is not a boolean (true or false)";
  } else if constexpr (std::is_same_v<T, double>) {
    if (text.trim().getAsDouble(value))
      return name + "=" + text.str() + " is not a number";
  } else {
    if (text.trim().getAsInteger(10, value))
      return name + "=" + text.str() + " is not an integer";
  }
  return "";
}

template <typename T>
void ComponentOptions::Option<T>::printValue(llvm::raw_ostream &os) const {
  if constexpr (std::is_same_v<T, std::string>) {
    // Empty values and values with spaces are braced so that they parse
    // back.
    if (value.empty() || llvm::any_of(value, [](char c) { return c == ' '; }))
      os << "{" << value << "}";
    else
      os << value;
  } else if constexpr (std::is_same_v<T, bool>) {
    os << (value ? "true" : "false");
  } else if constexpr (std::is_same_v<T, double>) {
    // The shortest form that reads back as the same double: a run's
    // records must reproduce it.
    for (int digits = 1; digits <= 17; ++digits) {
      char text[40];
      std::snprintf(text, sizeof(text), "%.*g", digits, value);
      double back;
      if (digits == 17 ||
          (!llvm::StringRef(text).getAsDouble(back) && back == value)) {
        os << text;
        return;
      }
    }
  } else {
    os << value;
  }
}

template <typename T>
llvm::StringRef ComponentOptions::Option<T>::getTypeName() const {
  if constexpr (std::is_same_v<T, std::string>)
    return "string";
  else if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else if constexpr (std::is_same_v<T, double>)
    return "number";
  else
    return "int";
}

template <typename T>
void ComponentOptions::Option<T>::printDefault(llvm::raw_ostream &os) const {
  T current = value;
  const_cast<Option<T> *>(this)->value = defaultValue;
  printValue(os);
  const_cast<Option<T> *>(this)->value = current;
}

template <typename T>
std::string ComponentOptions::Option<T>::checkValue() const {
  if constexpr (std::is_same_v<T, std::string>) {
    if (choices.empty() || llvm::is_contained(choices, value))
      return "";
    return name + "=" + value + " is not one of: " + describeAllowed();
  } else if constexpr (std::is_same_v<T, bool>) {
    return "";
  } else {
    return checkRange(*this, static_cast<double>(value), range);
  }
}

template class ComponentOptions::Option<int>;
template class ComponentOptions::Option<int64_t>;
template class ComponentOptions::Option<double>;
template class ComponentOptions::Option<bool>;
template class ComponentOptions::Option<std::string>;

} // namespace tessel
} // namespace mlir

/// Splits "a=1 b='x y' c={p q}" into (key, value) pairs; a key without '='
/// has no value. Fails on an unterminated quote.
static llvm::Expected<
    std::vector<std::pair<std::string, std::optional<std::string>>>>
tokenize(llvm::StringRef text) {
  std::vector<std::pair<std::string, std::optional<std::string>>> pairs;
  size_t i = 0;
  while (true) {
    while (i < text.size() && llvm::isSpace(text[i]))
      ++i;
    if (i == text.size())
      break;
    size_t keyStart = i;
    while (i < text.size() && text[i] != '=' && !llvm::isSpace(text[i]))
      ++i;
    std::string key = text.slice(keyStart, i).str();
    std::optional<std::string> value;
    if (i < text.size() && text[i] == '=') {
      ++i;
      if (i < text.size() &&
          (text[i] == '\'' || text[i] == '"' || text[i] == '{')) {
        char close = text[i] == '{' ? '}' : text[i];
        size_t end = text.find(close, i + 1);
        if (end == llvm::StringRef::npos)
          return llvm::createStringError("unterminated value of option '" +
                                         key + "'");
        value = text.slice(i + 1, end).str();
        i = end + 1;
      } else {
        size_t valueStart = i;
        while (i < text.size() && !llvm::isSpace(text[i]))
          ++i;
        value = text.slice(valueStart, i).str();
      }
    }
    pairs.push_back({std::move(key), std::move(value)});
  }
  return pairs;
}

llvm::Error ComponentOptions::parse(llvm::StringRef text) {
  auto pairs = tokenize(text);
  if (!pairs)
    return pairs.takeError();
  for (auto &[key, value] : *pairs) {
    auto it = llvm::find_if(
        options, [&](OptionBase *option) { return option->getName() == key; });
    if (it == options.end()) {
      std::vector<std::string> names;
      for (OptionBase *option : options)
        names.push_back(option->getName().str());
      llvm::sort(names);
      return llvm::createStringError(
          "unknown option '" + key + "'" +
          (names.empty() ? std::string(" (it has no options)")
                         : " (options: " + llvm::join(names, ", ") + ")"));
    }
    if ((*it)->getTypeName() != "bool" && !value)
      return llvm::createStringError("option '" + key + "' needs a value (" +
                                     key + "=...)");
    if (std::string error = (*it)->parseValue(value.value_or(""));
        !error.empty())
      return llvm::createStringError(error);
  }
  return llvm::Error::success();
}

std::string ComponentOptions::check() const {
  for (OptionBase *option : options)
    if (std::string error = option->checkValue(); !error.empty())
      return error;
  return validate();
}

/// The options of `options`, sorted by name.
static std::vector<ComponentOptions::OptionBase *>
getSorted(const ComponentOptions &options) {
  std::vector<ComponentOptions::OptionBase *> sorted(
      options.getOptions().begin(), options.getOptions().end());
  llvm::sort(sorted,
             [](auto *a, auto *b) { return a->getName() < b->getName(); });
  return sorted;
}

void ComponentOptions::print(llvm::raw_ostream &os) const {
  llvm::interleave(
      getSorted(*this), os,
      [&](OptionBase *option) {
        os << option->getName() << "=";
        option->printValue(os);
      },
      " ");
}

void ComponentOptions::printHelp(llvm::raw_ostream &os, unsigned indent) const {
  size_t width = 0;
  for (OptionBase *option : options)
    width = std::max(width, option->getName().size());
  for (OptionBase *option : getSorted(*this)) {
    std::string defaultText;
    llvm::raw_string_ostream defaultStream(defaultText);
    option->printDefault(defaultStream);
    os.indent(indent) << llvm::left_justify(option->getName(), width) << " = "
                      << defaultText << " (" << option->getTypeName();
    if (std::string allowed = option->describeAllowed(); !allowed.empty())
      os << ": " << allowed;
    os << ")  " << option->getHelp() << "\n";
  }
}

void ComponentOptions::copyFrom(const ComponentOptions &other) {
  assert(options.size() == other.options.size() && "options of another kind");
  for (auto [mine, theirs] : llvm::zip(options, other.options)) {
    std::string text;
    llvm::raw_string_ostream os(text);
    theirs->printValue(os);
    llvm::StringRef value(text);
    if (value.starts_with("{") && value.ends_with("}"))
      value = value.drop_front().drop_back();
    (void)mine->parseValue(value);
  }
}

//===----------------------------------------------------------------------===//
// Specs
//===----------------------------------------------------------------------===//

std::pair<llvm::StringRef, llvm::StringRef>
tessel::splitSpec(llvm::StringRef spec) {
  spec = spec.trim();
  size_t end = spec.find_first_of(" \t{");
  llvm::StringRef name = spec.take_front(end);
  llvm::StringRef rest = spec.drop_front(name.size()).trim();
  if (rest.starts_with("{") && rest.ends_with("}"))
    rest = rest.drop_front().drop_back();
  return {name, rest};
}

llvm::Error tessel::parseComponentOptions(ComponentOptions &options,
                                          llvm::StringRef optionText,
                                          llvm::StringRef what) {
  if (llvm::Error error = options.parse(optionText))
    return llvm::createStringError(what + ": " +
                                   llvm::toString(std::move(error)));
  if (std::string invalid = options.check(); !invalid.empty())
    return llvm::createStringError(what + ": " + invalid);
  return llvm::Error::success();
}

std::string tessel::getCanonicalSpec(llvm::StringRef name,
                                     const ComponentOptions &options) {
  std::string spec = name.str();
  if (options.getOptions().empty())
    return spec;
  llvm::raw_string_ostream os(spec);
  os << " ";
  options.print(os);
  return spec;
}

void tessel::printComponentHelp(llvm::raw_ostream &os,
                                const ComponentInfo &info) {
  os << "  " << info.name << ": " << info.summary << "\n";
  info.createOptions()->printHelp(os, 4);
}
