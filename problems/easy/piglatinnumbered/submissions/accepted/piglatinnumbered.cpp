#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    size_t i = s.find_first_of("aeiou");
    if (i == 0) return s + "way";
    if (i == std::string::npos) return s + "ay";
    return s.substr(i) + s.substr(0, i) + "ay";
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
