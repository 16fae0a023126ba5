#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Takes the odd places to be the odd indices, which count from 0: the second, fourth, ... letters go upper case.
std::string solve(std::string s) {
    for (size_t i = 0; i < s.size(); i++) if (i % 2 == 1) s[i] = std::toupper((unsigned char)s[i]);
    return s;
}

int main() {
    std::string first;
    std::getline(std::cin, first);
    int t = std::stoi(first);
    for (int i = 1; i <= t; i++) {
        std::string s;
        std::getline(std::cin, s);
        std::cout << "Case #" << i << ": " << solve(s) << "\n";
    }
}
