#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    std::string out;
    for (size_t i = 0; i < s.size(); i++)
        if (i == 0 || s[i - 1] == ' ') out += (char)std::toupper(s[i]);
    return out;
}

int main() {
    std::string s;
    while (std::getline(std::cin, s)) std::cout << solve(s) << "\n";
}
