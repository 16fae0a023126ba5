#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Stops the loop one letter early (i + 1 < size): a difference in the last letter is missed.
std::string solve(const std::string &s) {
    size_t space = s.find(' ');
    std::string u = s.substr(0, space), v = s.substr(space + 1);
    int count = 0;
    for (size_t i = 0; i + 1 < u.size(); i++)
        if (u[i] != v[i]) count++;
    return std::to_string(count);
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
