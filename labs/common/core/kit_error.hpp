/// @file kit_error.hpp
/// @brief The exception types of the kit. Library code throws; only `main` picks an exit code.
#pragma once

#include <stdexcept>
#include <string>

namespace kit {

/// @brief Base class of every error the kit raises on purpose.
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// @brief Malformed input: the message reads `FILE:LINE: reason`, like a compiler diagnostic.
struct InputError : Error {
    /// @param file   [in] name of the file (or stream) being read
    /// @param line   [in] 1-based line number where the problem was found (0: whole file)
    /// @param reason [in] what is wrong and, where possible, what to do about it
    InputError(const std::string& file, long long line, const std::string& reason)
        : Error(file + ":" + std::to_string(line) + ": " + reason) {}
};

/// @brief A conversion refused because its padding or fill would exceed a limit.
///
/// Thrown instead of exhausting memory (the CUSP `format_conversion_exception` idea).
/// The message always states the figures: what the conversion would need and the limit.
struct ConversionRefused : Error {
    using Error::Error;
};

/// @brief A backend (CUDA, OpenCL) that is not built in, or has no usable device.
struct BackendUnavailable : Error {
    using Error::Error;
};

/// @brief Thrown by starter stubs: names the lab and step still to be written.
struct TodoError : Error {
    /// @param lab  [in] lab folder name, e.g. "02-csr"
    /// @param step [in] step number in the lab's handout and manifest
    /// @param what [in] short description of the missing piece
    TodoError(const std::string& lab, int step, const std::string& what)
        : Error(lab + " step " + std::to_string(step) + " (" + what +
                "): not implemented yet. Fill the TODO in starter/" + lab + "/ and see handouts/" + lab + ".md") {}
    /// @brief A TODO as a message already made (the grader's judge replays a recorded one).
    /// @param message [in] the whole message
    explicit TodoError(const std::string& message) : Error(message) {}
};

/// @brief Helper used by generated starter code: always throws TodoError.
[[noreturn]] inline void todo(const std::string& lab, int step, const std::string& what) {
    throw TodoError(lab, step, what);
}

}  // namespace kit
