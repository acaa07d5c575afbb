//===- Registry.h - Named tuner components with typed options ---*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Strategies, cost models and feature sets are registered by name. Each has
// its own options, written in MLIR's pass-option syntax after the name:
//
//   evolutionary population=2048 epsilon-greedy=0.05
//   dgd window=3 max-hops=3
//   xgboost tree-method=exact
//
// A spec is parsed into the component's options object (ComponentOptions),
// checked against each option's range and the object's validate(), and
// printed back
// in full, every option with its value, so that a run's records say exactly
// what ran (getCanonicalSpec).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_REGISTRY_H
#define TESSEL_TUNING_REGISTRY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// The options of a registered component: typed options, each with a name,
/// a default, a help line and an optional range, parsed from "a=1 b=x"
/// (MLIR's pass-option syntax; a bare boolean option means true; values may
/// be quoted with '', "" or {}). Subclasses declare members such as
///
///   Option<double> epsilon{*this, "epsilon-greedy", 0.05,
///                          "Share of each batch drawn at random", {0, 1}};
///
/// and may check combinations in validate(). Not copyable (options refer to
/// their parent); copy values with copyFrom().
class ComponentOptions {
public:
  /// The allowed values of a numeric option: [min, max], either side open.
  struct Range {
    std::optional<double> min, max;
    Range() = default;
    Range(std::optional<double> min, std::optional<double> max = std::nullopt)
        : min(min), max(max) {}
  };

  /// One option, untyped.
  class OptionBase {
  public:
    OptionBase(ComponentOptions &parent, llvm::StringRef name,
               llvm::StringRef help, Range range,
               std::vector<std::string> choices);
    virtual ~OptionBase();
    llvm::StringRef getName() const { return name; }
    llvm::StringRef getHelp() const { return help; }
    /// Sets the value from text; an error message, or empty.
    virtual std::string parseValue(llvm::StringRef text) = 0;
    virtual void printValue(llvm::raw_ostream &os) const = 0;
    virtual void printDefault(llvm::raw_ostream &os) const = 0;
    /// "int", "number", "bool" or "string".
    virtual llvm::StringRef getTypeName() const = 0;
    /// The range or choice violated, said as "name=value is out of range:
    /// ..."; empty when the value is allowed.
    virtual std::string checkValue() const = 0;
    /// The allowed values, for help: "0 to 1", "at least 1", "a, b".
    std::string describeAllowed() const;

  protected:
    std::string name, help;
    Range range;
    std::vector<std::string> choices;
  };

  /// An option of type T: int, int64_t, double, bool or std::string.
  template <typename T>
  class Option : public OptionBase {
  public:
    Option(ComponentOptions &parent, llvm::StringRef name, T defaultValue,
           llvm::StringRef help, Range range = {},
           std::vector<std::string> choices = {})
        : OptionBase(parent, name, help, range, std::move(choices)),
          value(defaultValue), defaultValue(defaultValue) {}
    operator const T &() const { return value; }
    const T &getValue() const { return value; }
    Option &operator=(const T &newValue) {
      value = newValue;
      return *this;
    }
    std::string parseValue(llvm::StringRef text) override;
    void printValue(llvm::raw_ostream &os) const override;
    void printDefault(llvm::raw_ostream &os) const override;
    llvm::StringRef getTypeName() const override;
    std::string checkValue() const override;

  private:
    T value, defaultValue;
  };

  ComponentOptions() = default;
  ComponentOptions(const ComponentOptions &) = delete;
  ComponentOptions &operator=(const ComponentOptions &) = delete;
  virtual ~ComponentOptions();

  /// Parses "a=1 b=2"; the error is one line naming the option.
  llvm::Error parse(llvm::StringRef text);
  /// Checks every option's range and choices, then validate(). An error
  /// message, or empty.
  std::string check() const;
  /// Combinations of values the ranges cannot say; empty when valid.
  virtual std::string validate() const { return ""; }
  /// "a=1 b=2" with every option, sorted by name.
  void print(llvm::raw_ostream &os) const;
  /// One line per option: name, type, default, allowed values, help.
  void printHelp(llvm::raw_ostream &os, unsigned indent) const;
  /// Copies the values of `other`, an object of the same class.
  void copyFrom(const ComponentOptions &other);
  llvm::ArrayRef<OptionBase *> getOptions() const { return options; }

private:
  std::vector<OptionBase *> options;
};

extern template class ComponentOptions::Option<int>;
extern template class ComponentOptions::Option<int64_t>;
extern template class ComponentOptions::Option<double>;
extern template class ComponentOptions::Option<bool>;
extern template class ComponentOptions::Option<std::string>;

/// A component without options.
class NoOptions : public ComponentOptions {};

/// What every registered component has: a name, a one-line summary and its
/// options with their defaults.
struct ComponentInfo {
  std::string name;
  std::string summary;
  /// Options holding their defaults.
  std::function<std::unique_ptr<ComponentOptions>()> createOptions = [] {
    return std::make_unique<NoOptions>();
  };
};

/// A parsed spec: the component and its options.
template <typename InfoT>
struct ParsedSpec {
  const InfoT *info = nullptr;
  std::unique_ptr<ComponentOptions> options;
};

/// A number as a user would write it in an option: 0.05, 64, 1e-06.
std::string formatOptionNumber(double value);

/// Splits `spec` into the name and the option text ("evolutionary
/// population=64" -> "evolutionary", "population=64"); "name{a=1}" is
/// accepted too.
std::pair<llvm::StringRef, llvm::StringRef> splitSpec(llvm::StringRef spec);

/// Parses `optionText` into `options` and checks it. The error is one line,
/// prefixed with `what` (e.g. "strategy 'dgd'").
llvm::Error parseComponentOptions(ComponentOptions &options,
                                  llvm::StringRef optionText,
                                  llvm::StringRef what);

/// "name opt1=v1 opt2=v2 ..." with every option of `options`, sorted by
/// option name; just "name" when it has none.
std::string getCanonicalSpec(llvm::StringRef name,
                             const ComponentOptions &options);

/// Prints `info`'s name, summary and options (name, default, help).
void printComponentHelp(llvm::raw_ostream &os, const ComponentInfo &info);

/// A registry of components of one kind (strategies, cost models, feature
/// sets), by name.
template <typename InfoT>
class ComponentRegistry {
public:
  /// `kind` names the components in messages ("strategy").
  explicit ComponentRegistry(llvm::StringRef kind) : kind(kind.str()) {}

  /// Adds `info`; a name registered twice is a programming error.
  void add(InfoT info) {
    assert(!lookup(info.name) && "component registered twice");
    infos.push_back(std::make_unique<InfoT>(std::move(info)));
  }
  /// The component called `name`, or null.
  const InfoT *lookup(llvm::StringRef name) const {
    for (const auto &info : infos)
      if (info->name == name)
        return info.get();
    return nullptr;
  }
  /// Every component, sorted by name.
  std::vector<const InfoT *> getAll() const {
    std::vector<const InfoT *> all;
    for (const auto &info : infos)
      all.push_back(info.get());
    std::sort(all.begin(), all.end(),
              [](const InfoT *a, const InfoT *b) { return a->name < b->name; });
    return all;
  }
  /// The registered names, sorted, comma-separated.
  std::string getNames() const {
    std::string names;
    for (const InfoT *info : getAll())
      names += (names.empty() ? "" : ", ") + info->name;
    return names;
  }
  /// Parses "name opt=value ..."; errors name the unknown component (with
  /// the known ones) or the bad option.
  llvm::Expected<ParsedSpec<InfoT>> parse(llvm::StringRef spec) const {
    auto [name, optionText] = splitSpec(spec);
    const InfoT *info = lookup(name);
    if (!info)
      return llvm::createStringError("unknown " + kind + " '" + name.str() +
                                     "' (known: " + getNames() + ")");
    ParsedSpec<InfoT> parsed{info, info->createOptions()};
    if (llvm::Error error = parseComponentOptions(
            *parsed.options, optionText, kind + " '" + info->name + "'"))
      return std::move(error);
    return parsed;
  }
  /// The canonical form of `spec` (getCanonicalSpec), or the parse error.
  llvm::Expected<std::string> canonicalize(llvm::StringRef spec) const {
    auto parsed = parse(spec);
    if (!parsed)
      return parsed.takeError();
    return getCanonicalSpec(parsed->info->name, *parsed->options);
  }

private:
  std::string kind;
  std::vector<std::unique_ptr<InfoT>> infos;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_REGISTRY_H
