#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Forgets the draw: when the first player does not win, the second one does.
std::string solve(const std::string &s) {
    std::string a = s.substr(0, s.find(' ')), b = s.substr(s.find(' ') + 1);
    if ((a == "rock" && b == "scissors") || (a == "scissors" && b == "paper") ||
        (a == "paper" && b == "rock"))
        return "first";
    return "second";
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
