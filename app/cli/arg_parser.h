#pragma once
// A small declarative command-line parser for the `once` subcommands (no Qt: the CLI must also
// build on machines without it, such as the GPU machine).
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace once::cli {

/// Wrong usage: printed with the command's help, exit code 2.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// The values an option accepts. parse() checks every given value against its option's domain
/// (a usage error naming the option, exit 2), so a command never starts work on a value it
/// would refuse, or worse use, later: a negative count, a seed of -1, a NaN temperature, a
/// number that would wrap when narrowed. Ranges that depend on other options or that the studio
/// shares (the trainer's FitConfig, Stage A's options) stay in core's validate() (exit 1).
struct OptionDomain {
    enum class Kind { text, integer, integerList, number };
    Kind kind = Kind::text;
    std::int64_t intMin = 0, intMax = 0;  ///< integer, integerList: inclusive bounds
    double min = 0, max = 0;              ///< number: finite, <= max, >= min (> min if minOpen)
    bool minOpen = false;
    std::string text() const;  ///< "an integer in [1, 64]", for messages and help
};

/// Bounds shared by many options: seeds are unsigned 63-bit values (-1 is not "random"), counts
/// that core narrows to int stay within int.
constexpr std::int64_t kMaxSeedOption = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMaxIntOption = std::numeric_limits<int>::max();
constexpr std::int64_t kMinIntOption = std::numeric_limits<int>::min();

class ArgParser {
  public:
    struct Option {
        std::string name, valueName, help, shortAlias;
        std::optional<std::string> defaultValue;
        bool isFlag = false;
        std::vector<std::string> aliases;  ///< other long names (without "--")
        OptionDomain domain;
    };

    ArgParser(std::string command, std::string summary);

    /// --name VALUE (with optional short alias such as "-o"). Empty default = no default.
    ArgParser& option(const std::string& name, const std::string& valueName,
                      const std::string& help, std::optional<std::string> defaultValue = {},
                      const std::string& shortAlias = {});
    /// --name (boolean)
    ArgParser& flag(const std::string& name, const std::string& help);
    /// Makes the option `name`, declared earlier, the one the modifiers below apply to (a
    /// command that reads options through a table gives them their domains in a loop).
    ArgParser& select(const std::string& name);
    /// Accepts --`oldName` for the option declared last (an older spelling kept working).
    ArgParser& alias(const std::string& oldName);
    /// The option declared last takes an integer in [min, max].
    ArgParser& integerIn(std::int64_t min, std::int64_t max);
    /// ... a comma-separated list of integers, each in [min, max] (at least one).
    ArgParser& integerListIn(std::int64_t min, std::int64_t max);
    /// ... a finite number in [min, max].
    ArgParser& numberIn(double min, double max);
    /// ... a finite number in (min, max].
    ArgParser& numberAbove(double min, double max);
    /// ... any finite number (its range is core's to check: FitConfig::validate).
    ArgParser& finiteNumber();
    /// ... any 64-bit integer (its range is core's to check).
    ArgParser& anyInteger();
    /// A positional argument; `many` takes all remaining positionals.
    ArgParser& positional(const std::string& name, const std::string& help, bool required = true,
                          bool many = false);

    /// Parses; throws UsageError on unknown options, missing values, missing positionals or a
    /// value outside its option's domain.
    void parse(const std::vector<std::string>& args);
    bool helpRequested() const noexcept { return help_; }

    bool has(const std::string& name) const;  ///< given or defaulted
    bool flagSet(const std::string& name) const;
    std::string get(const std::string& name) const;  ///< throws UsageError if absent
    std::string getOr(const std::string& name, const std::string& fallback) const;
    /// An integer (UsageError naming the option otherwise).
    std::int64_t getInt(const std::string& name) const;
    /// getInt within int's range: a value beyond it must not wrap around into a valid-looking
    /// one. Outside it, OnceError "invalid `stage` option" naming the option (exit 1).
    int getInt32(const std::string& name, const std::string& stage) const;
    /// A finite number (NaN and Inf are usage errors for every option).
    double getDouble(const std::string& name) const;
    /// The integers of a list option ("32,64,128").
    std::vector<std::int64_t> getIntList(const std::string& name) const;
    std::vector<std::string> getAll(const std::string& name) const;  ///< repeated or `many`
    /// Throws UsageError unless exactly one of `names` is given.
    void requireOneOf(const std::vector<std::string>& names) const;

    std::string help() const;
    const std::string& command() const noexcept { return command_; }
    const std::vector<Option>& options() const noexcept { return specs_; }

    /// Throws UsageError naming `option` unless `value` lies in `domain`.
    static void checkValue(const std::string& option, const OptionDomain& domain,
                           const std::string& value);

  private:
    using Spec = Option;
    Spec& last(const char* what);
    std::size_t current_ = 0;  ///< the option the modifiers apply to
    struct Positional {
        std::string name, help;
        bool required = true, many = false;
    };
    const Spec* findSpec(const std::string& token) const;

    std::string command_, summary_;
    std::vector<Spec> specs_;
    std::vector<Positional> positionals_;
    std::map<std::string, std::vector<std::string>> values_;
    bool help_ = false;
};

}  // namespace once::cli
