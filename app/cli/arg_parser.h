#pragma once
// A small declarative command-line parser for the `once` subcommands (no Qt: the CLI must also
// build on machines without it, such as the GPU machine).
#include <cstdint>
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

class ArgParser {
  public:
    ArgParser(std::string command, std::string summary);

    /// --name VALUE (with optional short alias such as "-o"). Empty default = no default.
    ArgParser& option(const std::string& name, const std::string& valueName,
                      const std::string& help, std::optional<std::string> defaultValue = {},
                      const std::string& shortAlias = {});
    /// --name (boolean)
    ArgParser& flag(const std::string& name, const std::string& help);
    /// Accepts --`oldName` for the option declared last (an older spelling kept working).
    ArgParser& alias(const std::string& oldName);
    /// A positional argument; `many` takes all remaining positionals.
    ArgParser& positional(const std::string& name, const std::string& help, bool required = true,
                          bool many = false);

    /// Parses; throws UsageError on unknown options, missing values or missing positionals.
    void parse(const std::vector<std::string>& args);
    bool helpRequested() const noexcept { return help_; }

    bool has(const std::string& name) const;  ///< given or defaulted
    bool flagSet(const std::string& name) const;
    std::string get(const std::string& name) const;  ///< throws UsageError if absent
    std::string getOr(const std::string& name, const std::string& fallback) const;
    std::int64_t getInt(const std::string& name) const;
    /// getInt within int's range: a value beyond it must not wrap around into a valid-looking
    /// one. Outside it, OnceError "invalid `stage` option" naming the option (exit 1).
    int getInt32(const std::string& name, const std::string& stage) const;
    double getDouble(const std::string& name) const;
    std::vector<std::string> getAll(const std::string& name) const;  ///< repeated or `many`
    /// Throws UsageError unless exactly one of `names` is given.
    void requireOneOf(const std::vector<std::string>& names) const;

    std::string help() const;
    const std::string& command() const noexcept { return command_; }

  private:
    struct Spec {
        std::string name, valueName, help, shortAlias;
        std::optional<std::string> defaultValue;
        bool isFlag = false;
        std::vector<std::string> aliases;  ///< other long names (without "--")
    };
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
