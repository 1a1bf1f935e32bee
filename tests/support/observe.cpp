#include "observe.hpp"

#include <cstdio>
#include <fstream>
#include <new>
#include <set>

namespace kit::testing {

namespace {

/// What a record file may hold at most: far above any test's outputs (the largest is a y
/// of a few million doubles), far below what would hurt the judge's machine.
constexpr std::uint64_t kMaxRecordFileBytes = 1ull << 30;
constexpr char kMagic[8] = {'K', 'I', 'T', 'R', 'E', 'C', '1', '\n'};

/// Exception kinds as recorded: 0 is "returned normally".
enum Kind : std::uint8_t { todo = 1, refused, unavailable, kit_error, bad_alloc, std_error, unknown };

struct State {
    std::FILE* out = nullptr;                                           // record mode
    bool replay = false;                                                // replay mode
    std::map<std::string, std::pair<std::uint8_t, std::string>> calls;  // replay: call -> record
    std::string test = "(outside any test)";
    int rank = 0;
};

State& state() {
    static State s;
    return s;
}

std::string test_of(const std::string& call) { return call.substr(0, call.rfind('#')); }

/// Reads one record file into `calls`. The calls of a test that this file holds replace
/// those of earlier files (a test re-run alone after its program crashed wins).
void load(const std::string& path, std::map<std::string, std::pair<std::uint8_t, std::string>>& calls) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return;  // the student's program wrote nothing: every call is then not recorded
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::uint64_t>(in.tellg());
    if (size > kMaxRecordFileBytes)
        throw Error(path + ": " + std::to_string(size) + " bytes of records, more than the limit of " +
                    std::to_string(kMaxRecordFileBytes));
    in.seekg(0);
    std::string bytes(size, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(size));
    if (size < sizeof kMagic || bytes.compare(0, sizeof kMagic, kMagic, sizeof kMagic) != 0) return;
    Decoder d{bytes.data() + sizeof kMagic, bytes.data() + bytes.size()};
    std::map<std::string, std::pair<std::uint8_t, std::string>> mine;
    try {
        while (d.pos != d.end) {
            std::string call = Codec<std::string>::decode(d);
            const auto kind = Codec<std::uint8_t>::decode(d);
            std::string payload = Codec<std::string>::decode(d);
            mine[std::move(call)] = {kind, std::move(payload)};
        }
    } catch (const NotRecorded&) {
        // A program killed while writing leaves a record cut short: keep the whole ones.
    }
    std::set<std::string> tests;
    for (const auto& [call, _] : mine) tests.insert(test_of(call));
    for (auto it = calls.begin(); it != calls.end();)
        it = tests.count(test_of(it->first)) ? calls.erase(it) : std::next(it);
    calls.insert(mine.begin(), mine.end());
}

}  // namespace

namespace detail {

bool recording() { return state().out != nullptr; }
bool replaying() { return state().replay; }

std::string next_call_name() { return state().test + "#" + std::to_string(state().rank++); }

void record(const std::string& call, std::uint8_t kind, const std::string& payload) {
    Encoder e;
    Codec<std::string>::encode(e, call);
    Codec<std::uint8_t>::encode(e, kind);
    Codec<std::string>::encode(e, payload);
    // One write and a flush per call, so a crash later in the test keeps what came before.
    std::fwrite(e.bytes.data(), 1, e.bytes.size(), state().out);
    std::fflush(state().out);
}

std::pair<std::uint8_t, std::string> replayed(const std::string& call) {
    const auto it = state().calls.find(call);
    if (it == state().calls.end())
        throw NotRecorded("no result was recorded for call " + call.substr(call.rfind('#') + 1) +
                          " into your code in this test: your program crashed, timed out or stopped before "
                          "it returned (see the test's log)");
    return it->second;
}

std::pair<std::uint8_t, std::string> classify(std::exception_ptr e) {
    try {
        std::rethrow_exception(e);
    } catch (const TodoError& x) {
        return {todo, x.what()};
    } catch (const ConversionRefused& x) {
        return {refused, x.what()};
    } catch (const BackendUnavailable& x) {
        return {unavailable, x.what()};
    } catch (const Error& x) {
        return {kit_error, x.what()};
    } catch (const std::bad_alloc& x) {
        return {bad_alloc, x.what()};
    } catch (const std::exception& x) {
        return {std_error, x.what()};
    } catch (...) {
        return {unknown, "an exception that is not a std::exception"};
    }
}

void rethrow(std::uint8_t kind, const std::string& message) {
    switch (kind) {
        case todo:
            throw TodoError(message);
        case refused:
            throw ConversionRefused(message);
        case unavailable:
            throw BackendUnavailable(message);
        case kit_error:
            throw Error(message);
        case bad_alloc:
            throw std::bad_alloc();
        case std_error:
            throw std::runtime_error(message);
        case unknown:
            throw 0;  // what it was is lost; a test expecting a kit::Error still fails
        default:
            throw NotRecorded("a record of an unknown kind");
    }
}

}  // namespace detail

void init_observe(int& argc, char** argv) {
    const std::string record_flag = "--kit-record=", replay_flag = "--kit-replay=";
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind(record_flag, 0) == 0) {
            const std::string path = a.substr(record_flag.size());
            state().out = std::fopen(path.c_str(), "wb");
            if (!state().out) throw Error("cannot write the record file " + path);
            std::fwrite(kMagic, 1, sizeof kMagic, state().out);
            std::fflush(state().out);
        } else if (a.rfind(replay_flag, 0) == 0) {
            state().replay = true;
            std::string list = a.substr(replay_flag.size());
            for (std::size_t start = 0; start <= list.size();) {
                const std::size_t comma = std::min(list.find(',', start), list.size());
                if (comma > start) load(list.substr(start, comma - start), state().calls);
                start = comma + 1;
            }
        } else {
            argv[kept++] = argv[i];
        }
    }
    argc = kept;
    if (state().out && state().replay) throw Error("--kit-record and --kit-replay exclude each other");
}

void start_observed_test(const std::string& test) {
    state().test = test;
    state().rank = 0;
}

}  // namespace kit::testing
