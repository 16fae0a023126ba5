#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Starts with the letters of v: abc and xy give xaybc.
std::string solve(const std::string &s) {
    size_t space = s.find(' ');
    std::string u = s.substr(0, space), v = s.substr(space + 1), out;
    for (size_t i = 0; i < u.size() || i < v.size(); i++) {
        if (i < v.size()) out += v[i];
        if (i < u.size()) out += u[i];
    }
    return out;
}

int main() {
    std::string first;
    std::getline(std::cin, first);
    int t = std::stoi(first);
    for (int i = 1; i <= t; i++) {
        std::string s;
        std::getline(std::cin, s);
        std::cout << solve(s) << "\n";
    }
}
