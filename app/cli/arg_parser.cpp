#include "cli/arg_parser.h"

#include <charconv>
#include <limits>
#include <sstream>

#include "util/error.h"

namespace once::cli {

ArgParser::ArgParser(std::string command, std::string summary)
    : command_(std::move(command)), summary_(std::move(summary)) {}

ArgParser& ArgParser::option(const std::string& name, const std::string& valueName,
                             const std::string& help, std::optional<std::string> defaultValue,
                             const std::string& shortAlias) {
    specs_.push_back({name, valueName, help, shortAlias, std::move(defaultValue), false, {}});
    return *this;
}

ArgParser& ArgParser::flag(const std::string& name, const std::string& help) {
    specs_.push_back({name, {}, help, {}, std::nullopt, true, {}});
    return *this;
}

ArgParser& ArgParser::alias(const std::string& oldName) {
    if (specs_.empty()) {
        throw std::logic_error("alias() before any option");
    }
    specs_.back().aliases.push_back(oldName);
    return *this;
}

ArgParser& ArgParser::positional(const std::string& name, const std::string& help, bool required,
                                 bool many) {
    positionals_.push_back({name, help, required, many});
    return *this;
}

const ArgParser::Spec* ArgParser::findSpec(const std::string& token) const {
    for (const Spec& s : specs_) {
        if (token == "--" + s.name || (!s.shortAlias.empty() && token == s.shortAlias)) {
            return &s;
        }
        for (const std::string& a : s.aliases) {
            if (token == "--" + a) {
                return &s;
            }
        }
    }
    return nullptr;
}

void ArgParser::parse(const std::vector<std::string>& args) {
    std::vector<std::string> pos;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string tok = args[i];
        if (tok == "-h" || tok == "--help") {
            help_ = true;
            return;
        }
        if (tok.size() > 1 && tok[0] == '-' && !(tok.size() > 1 && std::isdigit(tok[1]))) {
            std::string value;
            bool inlineValue = false;
            if (auto eq = tok.find('='); tok.rfind("--", 0) == 0 && eq != std::string::npos) {
                value = tok.substr(eq + 1);
                tok = tok.substr(0, eq);
                inlineValue = true;
            }
            const Spec* s = findSpec(tok);
            if (!s) {
                throw UsageError("unknown option '" + tok + "' for 'once " + command_ + "'");
            }
            if (s->isFlag) {
                if (inlineValue) {
                    throw UsageError("option '" + tok + "' takes no value");
                }
                values_[s->name].push_back("1");
                continue;
            }
            if (!inlineValue) {
                if (i + 1 >= args.size()) {
                    throw UsageError("option '" + tok + "' needs a value (" + s->valueName + ")");
                }
                value = args[++i];
            }
            values_[s->name].push_back(value);
            continue;
        }
        pos.push_back(tok);
    }
    std::size_t k = 0;
    for (const Positional& p : positionals_) {
        if (p.many) {
            while (k < pos.size()) {
                values_[p.name].push_back(pos[k++]);
            }
        } else if (k < pos.size()) {
            values_[p.name].push_back(pos[k++]);
        }
        if (p.required && !values_.count(p.name)) {
            throw UsageError("missing argument " + p.name + " for 'once " + command_ + "'");
        }
    }
    if (k < pos.size()) {
        throw UsageError("unexpected argument '" + pos[k] + "' for 'once " + command_ + "'");
    }
}

bool ArgParser::has(const std::string& name) const {
    if (values_.count(name)) {
        return true;
    }
    for (const Spec& s : specs_) {
        if (s.name == name && s.defaultValue) {
            return true;
        }
    }
    return false;
}

bool ArgParser::flagSet(const std::string& name) const {
    return values_.count(name) > 0;
}

std::string ArgParser::get(const std::string& name) const {
    auto it = values_.find(name);
    if (it != values_.end()) {
        return it->second.back();
    }
    for (const Spec& s : specs_) {
        if (s.name == name && s.defaultValue) {
            return *s.defaultValue;
        }
    }
    throw UsageError("missing required option --" + name + " for 'once " + command_ + "'");
}

std::string ArgParser::getOr(const std::string& name, const std::string& fallback) const {
    return has(name) ? get(name) : fallback;
}

std::int64_t ArgParser::getInt(const std::string& name) const {
    std::string v = get(name);
    std::int64_t x = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc() || p != v.data() + v.size()) {
        throw UsageError("option --" + name + " expects an integer, found '" + v + "'");
    }
    return x;
}

int ArgParser::getInt32(const std::string& name, const std::string& stage) const {
    const std::int64_t v = getInt(name);
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
        fail("invalid " + stage + " option", {}, name, "a 32-bit integer", std::to_string(v));
    }
    return int(v);
}

double ArgParser::getDouble(const std::string& name) const {
    std::string v = get(name);
    try {
        std::size_t used = 0;
        double x = std::stod(v, &used);
        if (used == v.size()) {
            return x;
        }
    } catch (const std::exception&) {
    }
    throw UsageError("option --" + name + " expects a number, found '" + v + "'");
}

std::vector<std::string> ArgParser::getAll(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
}

void ArgParser::requireOneOf(const std::vector<std::string>& names) const {
    int given = 0;
    std::string list;
    for (const auto& n : names) {
        given += values_.count(n) ? 1 : 0;
        list += (list.empty() ? "" : " | ") + n;
    }
    if (given != 1) {
        throw UsageError("'once " + command_ + "' needs exactly one of: " + list);
    }
}

std::string ArgParser::help() const {
    std::ostringstream out;
    out << "usage: once " << command_;
    for (const Positional& p : positionals_) {
        out << " " << (p.required ? "" : "[") << p.name << (p.many ? "..." : "")
            << (p.required ? "" : "]");
    }
    out << " [options]\n\n" << summary_ << "\n";
    if (!positionals_.empty()) {
        out << "\narguments:\n";
        for (const Positional& p : positionals_) {
            out << "  " << p.name << "\n      " << p.help << "\n";
        }
    }
    out << "\noptions:\n";
    for (const Spec& s : specs_) {
        out << "  " << (s.shortAlias.empty() ? "" : s.shortAlias + ", ") << "--" << s.name;
        if (!s.isFlag) {
            out << " " << s.valueName;
        }
        out << "\n      " << s.help;
        for (const std::string& a : s.aliases) {
            out << " (also --" << a << ")";
        }
        if (s.defaultValue) {
            out << " (default: " << *s.defaultValue << ")";
        }
        out << "\n";
    }
    out << "  -h, --help\n      this help\n";
    return out.str();
}

}  // namespace once::cli
