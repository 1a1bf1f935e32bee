/// @file text.hpp
/// @brief Splitting the lists that command lines take ("1,2,4", "float,double", a path): the
/// one place the kit cuts a string at a separator.
#pragma once

#include <string>
#include <vector>

namespace kit {

/// @brief The pieces of s between separators, empty pieces included: "a,,b" gives a, "", b,
/// and "" gives one empty piece.
/// @param s [in] the text  @param sep [in] separator
inline std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t end = s.find(sep); end != std::string::npos; end = s.find(sep, start)) {
        parts.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    parts.push_back(s.substr(start));
    return parts;
}

/// @brief The non-empty items of a list, as options take them: "1,2,,4," gives 1, 2, 4.
/// @param s [in] the list  @param sep [in] separator (default ',')
inline std::vector<std::string> split_list(const std::string& s, char sep = ',') {
    std::vector<std::string> items;
    for (std::string& piece : split(s, sep))
        if (!piece.empty()) items.push_back(std::move(piece));
    return items;
}

}  // namespace kit
