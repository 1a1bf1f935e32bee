/// @file observe.hpp
/// @brief Every call from a test into student code goes through observe(), so that a grade
/// can be decided by a process that never runs student code.
///
/// A test program runs in one of three modes, picked on its command line:
///  - plain (`make test`): observe(f) is f(); the test decides, as students see it.
///  - record (`--kit-record=FILE`, the grader's run of the student's build): observe runs f
///    and appends what it returned, or the exception it threw, to FILE. This process's own
///    verdicts are never read: its code can reach everything in it.
///  - replay (`--kit-replay=FILE[,FILE...]`, the judge: the same tests linked with the
///    starter, built by the instructor): observe never runs f. It returns what the student's
///    program recorded for this call (or throws what it threw), and the test's own
///    expectations, computed here by the kit's oracle, decide.
///
/// A call is named by its test and its rank among the observed calls of that test, so test
/// code between two calls must not depend on anything but earlier observed values and its
/// own inputs (it is run twice, once in each process). Recorded data is hostile input to the
/// judge: the decoder checks every length against the bytes left before it allocates.
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/kit_error.hpp"
#include "registry/variants.hpp"

namespace kit::testing {

/// @brief Thrown by the judge when the student's program recorded nothing for a call (it
/// crashed, timed out or stopped before it) or recorded something that does not decode.
struct NotRecorded : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// @brief Bytes of one observed value, appended field by field.
struct Encoder {
    std::string bytes;  ///< what has been written so far
    /// @brief Appends n raw bytes. @param p [in] source  @param n [in] count
    void raw(const void* p, std::size_t n) { bytes.append(static_cast<const char*>(p), n); }
};

/// @brief Reads an observed value back; every read is checked against the bytes left.
struct Decoder {
    const char* pos;  ///< next byte
    const char* end;  ///< one past the last byte
    /// @brief Copies n bytes out, or throws NotRecorded when fewer are left. @param p [out] target  @param n [in] count
    void raw(void* p, std::size_t n) {
        if (static_cast<std::size_t>(end - pos) < n) throw NotRecorded("the recorded value is cut short");
        std::memcpy(p, pos, n);
        pos += n;
    }
    /// @brief Reads an element count and checks that count elements of at least min_bytes each fit.
    /// @param min_bytes [in] the smallest encoding of one element (at least 1)
    std::size_t count(std::size_t min_bytes) {
        std::uint64_t n = 0;
        raw(&n, sizeof n);
        if (n > static_cast<std::uint64_t>(end - pos) / (min_bytes ? min_bytes : 1))
            throw NotRecorded("the recorded value claims more elements than it holds");
        return static_cast<std::size_t>(n);
    }
};

/// @brief How a type is written to and read from a record. Specialised below for numbers,
/// enums, strings, vectors, pairs, optionals and maps; KIT_OBSERVABLE adds a struct.
template <class T, class Enable = void>
struct Codec;

/// @brief Numbers and enums: their bytes.
template <class T>
struct Codec<T, std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T>>> {
    static constexpr std::size_t min_bytes = sizeof(T);  ///< encoded size
    /// @brief Writes v. @param e [in,out] encoder  @param v [in] value
    static void encode(Encoder& e, const T& v) { e.raw(&v, sizeof v); }
    /// @brief Reads one value. @param d [in,out] decoder
    static T decode(Decoder& d) {
        T v{};
        d.raw(&v, sizeof v);
        return v;
    }
};

/// @brief Strings: length, then bytes.
template <>
struct Codec<std::string> {
    static constexpr std::size_t min_bytes = 8;  ///< the length field
    /// @brief Writes s. @param e [in,out] encoder  @param s [in] value
    static void encode(Encoder& e, const std::string& s) {
        const std::uint64_t n = s.size();
        e.raw(&n, sizeof n);
        e.raw(s.data(), s.size());
    }
    /// @brief Reads one string. @param d [in,out] decoder
    static std::string decode(Decoder& d) {
        std::string s(d.count(1), '\0');
        d.raw(s.data(), s.size());
        return s;
    }
};

/// @brief Vectors: count, then each element.
template <class T>
struct Codec<std::vector<T>> {
    static constexpr std::size_t min_bytes = 8;  ///< the count field
    /// @brief Writes v. @param e [in,out] encoder  @param v [in] value
    static void encode(Encoder& e, const std::vector<T>& v) {
        const std::uint64_t n = v.size();
        e.raw(&n, sizeof n);
        for (const auto& x : v) Codec<T>::encode(e, x);
    }
    /// @brief Reads one vector. @param d [in,out] decoder
    static std::vector<T> decode(Decoder& d) {
        std::vector<T> v;
        const std::size_t n = d.count(Codec<T>::min_bytes);
        v.reserve(n);
        for (std::size_t i = 0; i < n; ++i) v.push_back(Codec<T>::decode(d));
        return v;
    }
};

/// @brief Pairs: first, then second.
template <class A, class B>
struct Codec<std::pair<A, B>> {
    static constexpr std::size_t min_bytes = Codec<A>::min_bytes + Codec<B>::min_bytes;  ///< encoded size at least
    /// @brief Writes p. @param e [in,out] encoder  @param p [in] value
    static void encode(Encoder& e, const std::pair<A, B>& p) {
        Codec<A>::encode(e, p.first);
        Codec<B>::encode(e, p.second);
    }
    /// @brief Reads one pair. @param d [in,out] decoder
    static std::pair<A, B> decode(Decoder& d) {
        A a = Codec<A>::decode(d);
        return {std::move(a), Codec<B>::decode(d)};
    }
};

/// @brief Optionals: a flag, then the value if present.
template <class T>
struct Codec<std::optional<T>> {
    static constexpr std::size_t min_bytes = 1;  ///< the flag
    /// @brief Writes o. @param e [in,out] encoder  @param o [in] value
    static void encode(Encoder& e, const std::optional<T>& o) {
        Codec<bool>::encode(e, o.has_value());
        if (o) Codec<T>::encode(e, *o);
    }
    /// @brief Reads one optional. @param d [in,out] decoder
    static std::optional<T> decode(Decoder& d) {
        if (!Codec<bool>::decode(d)) return std::nullopt;
        return Codec<T>::decode(d);
    }
};

/// @brief Maps: as a vector of pairs.
template <class K, class V>
struct Codec<std::map<K, V>> {
    static constexpr std::size_t min_bytes = 8;  ///< the count field
    /// @brief Writes m. @param e [in,out] encoder  @param m [in] value
    static void encode(Encoder& e, const std::map<K, V>& m) {
        Codec<std::vector<std::pair<K, V>>>::encode(e, {m.begin(), m.end()});
    }
    /// @brief Reads one map. @param d [in,out] decoder
    static std::map<K, V> decode(Decoder& d) {
        const auto v = Codec<std::vector<std::pair<K, V>>>::decode(d);
        return {v.begin(), v.end()};
    }
};

namespace detail {
/// Writes each field in turn.
template <class... F>
void encode_fields(Encoder& e, const F&... f) {
    (Codec<F>::encode(e, f), ...);
}
/// Reads each field in turn (a fold over the comma operator keeps the order).
template <class... F>
void decode_fields(Decoder& d, F&... f) {
    ((f = Codec<F>::decode(d)), ...);
}

/// The process-wide mode and the calls of the running test (observe.cpp).
bool recording();
bool replaying();
/// The name of the next observed call: "Suite.Test#k".
std::string next_call_name();
/// Appends one record (kind 0: a value; otherwise an exception kind and its message).
void record(const std::string& call, std::uint8_t kind, const std::string& payload);
/// The record of a call in replay mode; throws NotRecorded when there is none.
std::pair<std::uint8_t, std::string> replayed(const std::string& call);
/// The kind of a caught exception (1..7) and its message; rethrows that kind in replay.
std::pair<std::uint8_t, std::string> classify(std::exception_ptr e);
[[noreturn]] void rethrow(std::uint8_t kind, const std::string& message);
}  // namespace detail

/// @brief Calls into student code, recorded or replayed as the program's mode says.
///
/// `f` takes no arguments and returns a value whose type has a Codec (use a lambda that
/// returns the outputs of a function that writes through pointers). A void `f` is allowed:
/// only whether it threw is recorded.
/// @param f [in] the call, e.g. `[&] { return kit::choose_lanes(2.25); }`
/// @return what f returned in the student's program
template <class F>
auto observe(F&& f) -> std::invoke_result_t<F&> {
    using R = std::invoke_result_t<F&>;
    if (!detail::recording() && !detail::replaying()) return f();
    const std::string call = detail::next_call_name();
    if (detail::replaying()) {
        auto [kind, payload] = detail::replayed(call);
        if (kind != 0) detail::rethrow(kind, payload);
        if constexpr (!std::is_void_v<R>) {
            Decoder d{payload.data(), payload.data() + payload.size()};
            R value = Codec<std::decay_t<R>>::decode(d);
            if (d.pos != d.end) throw NotRecorded("the recorded value of " + call + " has bytes left over");
            return value;
        } else {
            return;
        }
    }
    try {
        if constexpr (std::is_void_v<R>) {
            f();
            detail::record(call, 0, {});
        } else {
            R value = f();
            Encoder e;
            Codec<std::decay_t<R>>::encode(e, value);
            detail::record(call, 0, e.bytes);
            return value;
        }
    } catch (...) {
        auto [kind, message] = detail::classify(std::current_exception());
        detail::record(call, kind, message);
        throw;
    }
}

/// @brief Reads the mode from the command line (--kit-record=FILE, --kit-replay=FILE[,FILE])
/// and removes those arguments. Throws kit::Error on a bad argument or an unreadable file.
/// @param argc [in,out] argument count  @param argv [in,out] arguments
void init_observe(int& argc, char** argv);

/// @brief Tells observe which test is running (called by the test main's listener).
/// @param test [in] "Suite.Name"
void start_observed_test(const std::string& test);

}  // namespace kit::testing

/// Gives a struct a Codec from the list of its fields (write it at global scope).
#define KIT_OBSERVABLE(Type, ...)                       \
    namespace kit::testing {                            \
    template <>                                         \
    struct Codec<Type> {                                \
        static constexpr std::size_t min_bytes = 1;     \
        static void encode(Encoder& e, const Type& v) { \
            const auto& [__VA_ARGS__] = v;              \
            detail::encode_fields(e, __VA_ARGS__);      \
        }                                               \
        static Type decode(Decoder& d) {                \
            Type v{};                                   \
            auto& [__VA_ARGS__] = v;                    \
            detail::decode_fields(d, __VA_ARGS__);      \
            return v;                                   \
        }                                               \
    };                                                  \
    }

KIT_OBSERVABLE(kit::RunResult, y, times_ms, steady_ms, bytes, device, note, details)
