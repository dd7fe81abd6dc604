// The command-line parser audited once, centrally (issue 26, item 9): every option of every
// registered command that takes a number declares what it accepts (an OptionDomain), so a new
// option cannot quietly take -1, NaN or a value that wraps; every default lies inside its
// domain; and the parser itself refuses what the domains exclude (tests/security/
// test_hostile_options.cpp runs the same through the CLI).
#include <QtTest>
#include <cstdlib>
#include <set>

#include "cli/arg_parser.h"
#include "cli/command.h"

using namespace once::cli;

namespace {

// Value names that mean "a number" in the options' help (N, S, B, ...).
const std::set<std::string> kNumericValueNames = {"N", "S", "B", "T", "P", "Q", "L", "K", "R",
                                                   "A", "D", "E", "G", "M", "W", "LR", "WD",
                                                   "1|2"};

bool looksNumeric(const std::string& s) {
    if (s.empty()) {
        return false;
    }
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size();
}

// One option of each kind of domain.
ArgParser sampleParser() {
    ArgParser p("test", "test");
    p.option("count", "N", "a count", "1")
        .integerIn(1, 10)
        .option("seed", "S", "a seed", "0")
        .integerIn(0, kMaxSeedOption)
        .option("rate", "R", "a rate", "0.5")
        .numberAbove(0, 1)
        .option("list", "LIST", "budgets", "1,2")
        .integerListIn(1, 100)
        .option("any", "X", "finite", "0")
        .finiteNumber();
    return p;
}

}  // namespace

class TestOptionDomains : public QObject {
    Q_OBJECT
  private slots:
    void everyNumericOptionDeclaresItsDomain() {
        int checked = 0;
        for (const Command& c : commands()) {
            ArgParser p(c.name, c.summary);
            c.declare(p);
            for (const ArgParser::Option& o : p.options()) {
                if (o.isFlag) {
                    continue;
                }
                const std::string where = "once " + c.name + " --" + o.name;
                const bool numeric = kNumericValueNames.count(o.valueName) > 0 ||
                                     (o.defaultValue && looksNumeric(*o.defaultValue));
                QVERIFY2(!numeric || o.domain.kind != OptionDomain::Kind::text,
                         (where + " takes a number but declares no domain").c_str());
                if (o.defaultValue && o.domain.kind != OptionDomain::Kind::text) {
                    try {
                        ArgParser::checkValue(o.name, o.domain, *o.defaultValue);
                    } catch (const UsageError& e) {
                        QFAIL((where + ": the default is outside its domain: " + e.what())
                                  .c_str());
                    }
                    ++checked;
                }
            }
        }
        QVERIFY(checked > 40);  // the audit saw the commands
    }

    void theParserRefusesWhatADomainExcludes() {
        auto refused = [](const std::vector<std::string>& args) {
            ArgParser q = sampleParser();
            try {
                q.parse(args);
            } catch (const UsageError& e) {
                return std::string(e.what());
            }
            return std::string();
        };
        for (const std::vector<std::string>& bad :
             {std::vector<std::string>{"--count", "0"},
              {"--count", "11"},
              {"--count", "1.5"},
              {"--count", "+3"},
              {"--count", "99999999999999999999"},
              {"--seed", "-1"},
              {"--rate", "0"},
              {"--rate", "nan"},
              {"--rate", "1.0000001"},
              {"--list", "1,,2"},
              {"--list", "1,2,"},
              {"--list", "0"},
              {"--list", ""},
              {"--any", "inf"},
              {"--any", "-nan"},
              {"--any", "1e400"}}) {
            const std::string message = refused(bad);
            QVERIFY2(!message.empty(), (bad[0] + " " + bad[1] + " was accepted").c_str());
            QVERIFY2(message.find("option " + bad[0] + " expects") != std::string::npos,
                     message.c_str());
        }
        ArgParser p = sampleParser();
        p.parse({"--count", "10", "--seed", "9223372036854775807", "--rate", "1", "--list",
                 "7,100", "--any", "-1e300"});
        QCOMPARE(p.getInt("count"), std::int64_t(10));
        QCOMPARE(p.getIntList("list"), (std::vector<std::int64_t>{7, 100}));
        QCOMPARE(p.getDouble("any"), -1e300);
        // getDouble refuses non-finite values even of an option without a domain.
        ArgParser plain("test", "test");
        plain.option("x", "X", "x", "inf");
        plain.parse({});
        QVERIFY_THROWS_EXCEPTION(UsageError, plain.getDouble("x"));
    }
};

QTEST_GUILESS_MAIN(TestOptionDomains)
#include "test_option_domains.moc"
